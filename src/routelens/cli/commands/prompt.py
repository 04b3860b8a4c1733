"""``routelens prompt``: the deterministic Layer-1 block and its size."""

from __future__ import annotations

import sys

from routelens.cli.commands.common import load_or_exit, print_json
from routelens.tools.prompt import format_stats, layer1_block, layer1_stats


def register(sub, common) -> None:
    p = sub.add_parser(
        "prompt", parents=[common], help="print the Layer-1 block (ids + one-line descriptions) and its size",
        description="Print the Layer-1 block an agent's system prompt would carry: ids and one-line "
        "descriptions, sorted by id, byte-stable (no dates or hashes, so a cached prompt prefix survives). "
        "The block goes to standard output; its size (characters, UTF-8 bytes, and tiktoken cl100k_base "
        "tokens when that encoding loads without a network, else 'unavailable' with the reason) goes to "
        "standard error, so `routelens prompt > layer1.txt` captures exactly the block.")
    p.add_argument("--json", action="store_true", help='print {"block": ..., "stats": {...}} as JSON')
    p.set_defaults(func=run)


def run(args) -> int:
    loaded = load_or_exit(args)
    reg_path, reg = loaded.registry_path, loaded.registry
    block = layer1_block(reg)
    st = layer1_stats(reg, block)
    if args.json:
        print_json({"registry": str(reg_path), "block": block, "stats": st})
        return 0
    sys.stdout.write(block)
    sys.stdout.flush()
    print(format_stats(st), file=sys.stderr)
    return 0

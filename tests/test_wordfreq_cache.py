"""The word-frequency cache of the build (routelens.artifacts.wordfreq_cache):
exactly wordfreq's frequencies, and never trusted when damaged."""

from __future__ import annotations

import os

import wordfreq

from routelens.artifacts import wordfreq_cache as wc


def _files(folder):
    return sorted(folder.glob("wordfreq-*.words"))


def test_the_cache_gives_wordfreqs_frequency_of_every_word(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path))
    for lang in ("en", "ja"):
        first = wc.frequencies(lang)  # read through wordfreq, and written
        assert isinstance(first, dict)
        cached = wc.frequencies(lang)
        assert isinstance(cached, wc.Frequencies)
        truth = wordfreq.get_frequency_dict(lang)
        assert len(cached) == len(truth)
        assert first == truth
        for word, freq in truth.items():
            assert cached.get(word) == freq, (lang, word)  # the same float, not a close one
        first = min(truth)
        # the block search finds whole words only: no prefix or longer word, nothing across a LF or TAB,
        # nothing before the first word or after the last
        for missing in ("", "zzzzqqqq-not-a-word", "\uffff", " ", "\t", "\n", "\x00", first[:-1], first + "\t",
                        "\n" + first, first + "\n", "the\t", "the\t000", max(truth) + "a", "\U0010ffff"):
            if missing not in truth:
                assert cached.get(missing) is None
    assert [p.name.split("-")[1] for p in _files(tmp_path)] == ["en", "ja"]


def test_a_damaged_or_foreign_cache_is_rebuilt_never_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path))
    wc.frequencies("ja")
    (path,) = _files(tmp_path)
    good = path.read_bytes()
    truth = wordfreq.get_frequency_dict("ja")
    word = next(iter(truth))
    for bad in (good[:-1], good[:200], good[:-5] + b"xxxxx", b"", good.replace(wc.FORMAT, b"routelens-wordfreq-cache 0\n")):
        path.write_bytes(bad)
        again = wc.frequencies("ja")
        assert isinstance(again, dict) and again.get(word) == truth[word]  # read through wordfreq
        assert path.read_bytes() == good  # and written again
    # files of other keys (other wordfreq installs sharing the folder) are kept, the newest
    # KEEP_PER_LANGUAGE - 1 of them beside this one: removing all of them made two virtual environments
    # of one user re-read wordfreq on every build, each removing the other's file
    others = [tmp_path / f"wordfreq-ja-{i:04d}.words" for i in range(5)]
    for i, other in enumerate(others):
        other.write_bytes(good)
        os.utime(other, ns=(10 ** 18 + i, 10 ** 18 + i))
    (tmp_path / "wordfreq-en-0000.words").write_bytes(good)  # another language: untouched
    path.unlink()
    wc.frequencies("ja")
    assert _files(tmp_path) == sorted([tmp_path / "wordfreq-en-0000.words", path, *others[-3:]])


def test_no_cache_when_switched_off_or_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    assert isinstance(wc.frequencies("en"), dict)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(blocked / "cache"))
    assert wc.frequencies("en").get("the") == wordfreq.get_frequency_dict("en")["the"]
    assert not (blocked / "cache").exists()


def test_a_sealed_file_whose_parts_disagree_is_not_used(tmp_path, monkeypatch):
    # the seal only says the bytes are what some write made: the parts' sizes and order are checked too
    from routelens.fileio import seal, unseal

    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path))
    wc.frequencies("ja")
    (path,) = _files(tmp_path)
    key = path.name.split("-", 2)[2].removesuffix(".words")
    payload = unseal(path.read_bytes(), wc.FORMAT, key)
    assert payload is not None and isinstance(wc.frequencies("ja"), wc.Frequencies)
    n = int.from_bytes(payload[:8], "little")
    blocks = (n + wc.BLOCK - 1) // wc.BLOCK
    starts = payload[16:16 + 4 * blocks]
    swapped = starts[4:8] + starts[:4] + starts[8:]  # two blocks' offsets out of order
    for bad in (payload[:16] + swapped + payload[16 + 4 * blocks:],  # offsets out of order
                (n + 1).to_bytes(8, "little") + payload[8:],  # one word more than the words' part holds
                payload[:8] + (2 ** 40).to_bytes(8, "little") + payload[16:],  # heads longer than the file
                payload[:-1]):  # no final LF
        path.write_bytes(seal(wc.FORMAT, key, bad))
        assert isinstance(wc.frequencies("ja"), dict)  # read through wordfreq, and the file written again
        assert isinstance(wc.frequencies("ja"), wc.Frequencies)


def test_unsealed_at_agrees_with_unseal():
    from routelens.fileio import seal, unseal, unsealed_at

    good = seal(b"magic 1\n", "k" * 64, b"payload\nbytes")
    for data in (good, good[:-1], good + b"x", good[:20], b"", good.replace(b"magic 1", b"magic 2"),
                 good[:-3] + b"xyz", seal(b"magic 1\n", "k" * 64, b"")):
        got, at = unseal(data, b"magic 1\n", "k" * 64), unsealed_at(data, b"magic 1\n", "k" * 64)
        assert (got is None) == (at is None)
        if at is not None:
            assert data[at:] == got

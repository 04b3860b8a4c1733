from routelens.cli.entry import run

run()

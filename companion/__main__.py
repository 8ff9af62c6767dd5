from companion.cli import main

main(prog_name="companion")

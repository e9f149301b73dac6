from bunzai.cli.entry import main

main()

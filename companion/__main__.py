from companion.cli.main import main

raise SystemExit(main())

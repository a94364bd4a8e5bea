from pipvm.cli import main

raise SystemExit(main())

from wxpipe.cli import main

raise SystemExit(main())

from tallyhub.cli import main

raise SystemExit(main())

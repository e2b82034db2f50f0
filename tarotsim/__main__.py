from tarotsim.cli import main

raise SystemExit(main())

import sys

from routelens.cli import main

sys.exit(main())

import sys

from .supervisor import entry

sys.exit(entry())

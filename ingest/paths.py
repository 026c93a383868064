"""Where the project's files are. The project is used from a clone (``pip install -e .``), so
paths are relative to the clone's top folder."""

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CORPUS = PROJECT_ROOT / "corpus"
SEEDS = CORPUS / "seeds"
DB_DIR = PROJECT_ROOT / "db"
DEFAULT_DB = DB_DIR / "cardlaws.db"
VIEWS = DB_DIR / "views"
METADATA = PROJECT_ROOT / "metadata.yml"
PLUGINS = PROJECT_ROOT / "plugins"
TEMPLATES = PROJECT_ROOT / "templates"
STATIC = PROJECT_ROOT / "static"
VOCABULARY = Path(__file__).resolve().parent / "vocabulary"
# where `cardlaws corpus fetch` puts the catalogued books and the build looks for them
BOOK_CACHE = Path(os.environ.get("CARDLAWS_CACHE", PROJECT_ROOT / ".cache" / "books"))

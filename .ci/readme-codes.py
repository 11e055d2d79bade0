"""Rewrites the error-code table in README.md from src/error.rs (run from the repo root)."""
import re

src = open("src/error.rs").read()
rows = re.findall(r'^\s+\w+ = "([A-Z]+_E\d{3})", \w+, "(.*)";$', src, re.M)
esc = lambda m: m.replace("|", "\\|")
table = "\n".join("| `%s` | %s |" % (c, esc(m)) for c, m in rows)
r = open("README.md").read()
if "CODES_TABLE" in r:
    r = r.replace("CODES_TABLE", table)
else:
    r = re.sub(r"(\| code \| meaning \|\n\|---\|---\|\n)(\|.*\n)*", lambda m: m.group(1) + table + "\n", r)
open("README.md", "w").write(r)

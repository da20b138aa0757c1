"""Fill a PDF form: fill_form.py <in.pdf> <values.json> <out.pdf> (a fixture: it only prints its plan)."""
import json
import sys

source, values, target = sys.argv[1:4]
with open(values, encoding="utf-8") as handle:
    fields = json.load(handle)
print(f"would fill {len(fields)} field(s) of {source} into {target}")

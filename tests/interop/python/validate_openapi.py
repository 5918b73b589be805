"""Validates the running server's OpenAPI document with an independent validator.

openapi-spec-validator checks the document against the OpenAPI 3.1 schema, so a
document our own tests accept but other tools would reject is caught here.
Reads INTAKE_BASE_URL; prints `1 passed, 0 failed` or the validation error.
"""

import json
import os
import sys
import urllib.request

from openapi_spec_validator import validate

base_url = os.environ["INTAKE_BASE_URL"]
with urllib.request.urlopen(base_url + "/v1/affiliate-job/openapi.json") as response:
    document = json.load(response)

if document.get("openapi") != "3.1.0":
    print(f"openapi is {document.get('openapi')!r}, expected '3.1.0'")
    print("0 passed, 1 failed")
    sys.exit(1)
try:
    validate(document)
except Exception as error:  # the validator raises several error types
    print(f"invalid OpenAPI 3.1 document: {error}")
    print("0 passed, 1 failed")
    sys.exit(1)
print(f"valid OpenAPI 3.1 document with {len(document['paths'])} paths")
print("1 passed, 0 failed")

"""The C header is the contract: a C program built against it gets the answers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import content_blocker as cb
from conftest import ROOT

PROGRAM = r'''
#include "content_blocker.h"
#include <stdio.h>
#include <string.h>
int main(void) {
    const char *json = "[{\"trigger\":{\"url-filter\":\"ads\"},\"action\":{\"type\":\"block\"}}]";
    cb_rule_list *list = NULL; cb_matcher *matcher = NULL; char *text = NULL, *error = NULL; size_t length = 0;
    if (cb_rule_list_compile(json, strlen(json), "ads", &list, NULL, &error) != CB_OK) return 1;
    if (cb_matcher_new((const cb_rule_list *const *)&list, 1, NULL, 0, 0, &matcher, NULL) != CB_OK) return 2;
    cb_rule_list_free(list);
    const char *lines = "{\"url\":\"https://x.test/ads.js\",\"mainDocumentURL\":\"https://y.test/\"}\n{}\n";
    if (cb_match_many(matcher, lines, strlen(lines), CB_MATCH_BRIEF, 2, &text, &length, NULL) != CB_OK) return 3;
    fwrite(text, 1, length, stdout);
    cb_string_free(text);
    if (cb_match(matcher, "{}", 2, 0, &text, &length, &error) != CB_ERROR_REQUEST || text != NULL) return 4;
    printf("%s\n", error);
    cb_string_free(error);
    cb_matcher_free(matcher);
    return 0;
}
'''


def test_c_program(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    library = Path(cb.library_path())
    (tmp_path / "main.c").write_text(PROGRAM)
    subprocess.run([compiler, "-std=c99", "-Wall", "-Werror", "-I", str(ROOT / "Sources/ContentBlockerC/include"),
                    str(tmp_path / "main.c"), str(library), f"-Wl,-rpath,{library.parent}", "-o",
                    str(tmp_path / "main")], check=True)
    output = subprocess.run([str(tmp_path / "main")], stdout=subprocess.PIPE, check=True).stdout.decode()
    first, second, message = output.splitlines()
    assert '"blockedLoad":true' in first and '"cssDisplayNoneActions":0' in first
    assert second == '{"error":"line 2: url is required"}'
    assert message == "url is required"

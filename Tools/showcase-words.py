#!/usr/bin/env python3
"""The showcase's words: finds every words("…") in Apps/Sources, writes the gettext template
Apps/Sources/ShowcaseModel/Words/po/showcase.pot, and brings each language's catalog in step
(new sentences added untranslated, sentences no longer used dropped, translations kept).

    Tools/showcase-words.py          # update the template and the catalogs
    Tools/showcase-words.py --check  # exit 1 if the template is not what the sources say
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "Apps", "Sources")
PO_DIR = os.path.join(SOURCES, "ShowcaseModel", "Words", "po")
LANGUAGES = {"ko": ("Korean", "nplurals=1; plural=0;"), "ja": ("Japanese", "nplurals=1; plural=0;"),
             "ru": ("Russian", "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"), "he": ("Hebrew", "nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);")}
# words("…") with plain string literals, joined by + across lines (escaped quotes allowed, no
# interpolation).
LITERAL = r'"(?:[^"\\\n]|\\.)*"'
CALL = re.compile(r'\bwords\(\s*(' + LITERAL + r'(?:\s*\+\s*' + LITERAL + r')*)')
PART = re.compile(LITERAL)


def unescape(literal):
    return literal.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in literal else literal


def po_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def found():
    ids = {}
    for folder, _, files in os.walk(SOURCES):
        for name in sorted(files):
            if not name.endswith(".swift") or name == "ShowcaseWords.swift":
                continue
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8").read()
            for match in CALL.finditer(text):
                literal = "".join(part[1:-1] for part in PART.findall(match.group(1)))
                if "\\(" in literal:
                    sys.exit(f"{path}: words() takes no interpolation; use a {{placeholder}}: {literal}")
                ids.setdefault(unescape(literal), os.path.relpath(path, ROOT))
    return ids


def read_po(path):
    entries, id_, str_, state = {}, None, None, None
    if not os.path.exists(path):
        return entries
    def unq(line):
        return bytes(line.strip()[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
    for line in open(path, encoding="utf-8"):
        if line.startswith("msgid "):
            if id_ is not None:
                entries[id_] = str_
            id_, str_, state = unq(line[6:]), "", "id"
        elif line.startswith("msgstr "):
            str_, state = unq(line[7:]), "str"
        elif line.startswith('"'):
            if state == "id":
                id_ += unq(line)
            elif state == "str":
                str_ += unq(line)
    if id_ is not None:
        entries[id_] = str_
    entries.pop("", None)
    return entries


def header(language=None):
    lines = ['# The showcase\'s own words' + (f' in {LANGUAGES[language][0]}.' if language else ': the template each language\'s catalog is made from.'),
             '# Placeholders in braces ({name}) are filled by the showcase and must be kept.']
    if not language:
        lines.append('#, fuzzy')
    lines += ['msgid ""', 'msgstr ""', '"Project-Id-Version: DragDrop showcase\\n"']
    if language:
        lines += [f'"Language: {language}\\n"']
    lines += ['"MIME-Version: 1.0\\n"', '"Content-Type: text/plain; charset=UTF-8\\n"',
              '"Content-Transfer-Encoding: 8bit\\n"',
              f'"Plural-Forms: {LANGUAGES[language][1] if language else "nplurals=INTEGER; plural=EXPRESSION;"}\\n"', '']
    return "\n".join(lines) + "\n"


def write(path, ids, translations=None, language=None):
    out = header(language)
    for id_, where in ids.items():
        out += f"#: {where}\nmsgid {po_quote(id_)}\nmsgstr {po_quote((translations or {}).get(id_, ''))}\n\n"
    open(path, "w", encoding="utf-8").write(out)


def main():
    ids = dict(sorted(found().items()))
    pot = os.path.join(PO_DIR, "showcase.pot")
    if "--check" in sys.argv:
        old = set(read_po(pot))
        if old != set(ids):
            print("showcase.pot is out of step with the sources (run Tools/showcase-words.py):")
            for id_ in sorted(set(ids) - old): print("  missing:", id_)
            for id_ in sorted(old - set(ids)): print("  unused: ", id_)
            sys.exit(1)
        return
    os.makedirs(PO_DIR, exist_ok=True)
    write(pot, ids)
    for language in LANGUAGES:
        path = os.path.join(PO_DIR, f"{language}.po")
        write(path, ids, read_po(path), language)
    print(f"{len(ids)} sentences")


main()

"""The words tool search indexes and looks for: what closes the gap between how a tool is named
and how a user asks for it.

* Names read as words: ``checkOrderStatus`` and ``check_order-status`` → ``check order status``.
* Plurals folded (Harman's S-stemmer, for words in ASCII letters only: other scripts are left as
  ``server.skills.text`` cuts them): ``invoices`` → ``invoice``, ``policies`` → ``policy``.
  Measured (``benchmarks.tool_search``): it finds more of the right tools in the first five and
  fewer first, where singular and plural told ``get_invoice`` from ``list_invoices``; indexing
  both forms kept neither gain.
* A tool's action verbs (a word of its name) bring the words users say for them, in a field of
  their own that weighs less than the name: ``create_lead`` is found by "add a lead",
  ``approve_…`` by "sign off", ``export_…`` by "download as a spreadsheet". The table covers the
  verbs API operations are named with, not any one catalogue's.
"""

from __future__ import annotations

import re

from server.skills.text import tokens

CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
ASCII_WORD = re.compile(r"^[a-z]+$")

# an action verb of tool names: the words users ask for it with (English)
VERBS: dict[str, str] = {
    "get": "show see view look up find details status read fetch display open what",
    "read": "show see view get fetch open",
    "fetch": "get show retrieve download",
    "find": "search look for locate which",
    "search": "find look for query lookup which where",
    "lookup": "look up find search show check",
    "list": "all every which show browse overview",
    "create": "add new register open make start set up enter",
    "add": "create new insert put register",
    "new": "create add open start",
    "update": "change edit modify fix correct amend set adjust",
    "edit": "change update modify fix correct",
    "set": "change update configure put",
    "delete": "remove erase destroy drop purge get rid",
    "remove": "delete erase drop take out",
    "cancel": "call off stop abort void withdraw revoke",
    "approve": "sign off accept ok okay confirm authorise authorize agree",
    "reject": "decline deny refuse turn down",
    "export": "download csv excel spreadsheet file dump extract report",
    "import": "upload load bring in csv file",
    "upload": "attach send file put",
    "download": "get save export file",
    "assign": "hand over give responsible owner allocate delegate transfer route",
    "history": "audit trail log changed changes who when happened timeline past",
    "send": "email mail message notify deliver post",
    "notify": "alert tell inform message remind",
    "book": "reserve schedule make appointment",
    "schedule": "plan book arrange set up calendar when",
    "reschedule": "move change date postpone",
    "refund": "money back reimburse repay return payment",
    "pay": "payment settle charge",
    "charge": "bill pay invoice",
    "check": "verify status is whether see test",
    "track": "where status follow trace locate",
    "reset": "forgot forgotten new restore",
    "close": "finish resolve end done complete",
    "resolve": "fix close solve done",
    "open": "start create new begin",
    "archive": "store put away hide",
    "restore": "recover undo bring back undelete",
    "publish": "release make public post",
    "invite": "add ask join",
    "merge": "combine join accept",
    "sync": "synchronise synchronize refresh update",
    "calculate": "compute estimate how much price quote",
    "convert": "change translate transform",
    "apply": "use redeem add",
    "summarise": "summary summarize overview brief",
    "translate": "convert language",
    "count": "how many number total",
}


def words_of_name(name: str) -> str:
    """``checkOrderStatus`` and ``check_order-status`` alike → ``check Order Status``."""
    return CAMEL.sub(" ", name).replace("_", " ").replace("-", " ")


def fold(word: str) -> str:
    """Harman's S-stemmer on an ASCII word of 4 letters or more: ies → y, es → e, s → ''
    (but not -aies/-eies, -aes/-ees/-oes, -us/-ss)."""
    if len(word) < 4 or not ASCII_WORD.match(word):
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


def terms(text: str, folded: bool = True) -> list[str]:
    words = tokens(text)
    return [fold(w) for w in words] if folded else words


def action_words(name: str) -> str:
    """What users say for the action verbs of a tool's name ('' when it has none we know)."""
    return " ".join(VERBS[w] for w in tokens(words_of_name(name)) if w in VERBS)

"""Multilingual tokenisation, shared by every index and the classifier.

Text is NFKC-normalised and case-folded; words are runs of letters, marks and digits in any
script. Scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) give their
characters and every adjacent pair: a two-character Chinese or Japanese word is found as its
bigram, a one-character one as itself. No stemming: stemmers are per language, and a wrong
one hurts more than none.
"""

from __future__ import annotations

import re
import unicodedata

import regex

UNSPACED = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}ー々"
MAX_TOKEN_CHARS = 64  # longer "words" (hashes, base64) are cut in pieces: an index term stays small
WORDS = regex.compile(rf"[\p{{L}}\p{{M}}\p{{N}}]{{1,{MAX_TOKEN_CHARS}}}")
HAS_UNSPACED = regex.compile(rf"[{UNSPACED}]")
TOKENS = regex.compile(rf"([{UNSPACED}]+)|([\p{{L}}\p{{M}}\p{{N}}]{{1,{MAX_TOKEN_CHARS}}})")
ASCII_WORDS = re.compile(rf"[a-z0-9]{{1,{MAX_TOKEN_CHARS}}}")  # the same, for ASCII text (faster)


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def tokens(text: str) -> list[str]:
    """Index and query terms of ``text``, in order (an unspaced run's pairs after its
    characters)."""
    if text.isascii():
        return ASCII_WORDS.findall(text.lower())
    text = normalise(text)
    if HAS_UNSPACED.search(text) is None:
        words: list[str] = WORDS.findall(text)
        return words
    found: list[str] = []
    for unspaced, word in TOKENS.findall(text):
        if word:
            found.append(word)
            continue
        found.extend(unspaced)
        found.extend(unspaced[i : i + 2] for i in range(len(unspaced) - 1))
    return found


def char_ngrams(text: str, low: int = 3, high: int = 4) -> list[str]:
    """Character n-grams inside each space-separated chunk of the normalised text, its edges
    marked (symbols included: a kaomoji is all punctuation)."""
    found: list[str] = []
    for chunk in normalise(text).split():
        padded = f" {chunk} "
        for n in range(low, high + 1):
            found.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return found

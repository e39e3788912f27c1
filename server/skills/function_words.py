"""Function words (articles, pronouns, prepositions, conjunctions, auxiliaries, question words)
of the languages most FAQs are written in: a match made only of these says nothing about what a
question is about ("What's the weather on Mars?" meets "opening hours" only on "on").

Closed-class words only, short lists on purpose: the stop lists of search engines also hold
content words ("open", "order", "help", "back"), which an FAQ question is often about. A data
set's language(s) are found from its own text (``for_text``); a language not listed here has
none, and its questions are judged by the confidence alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

_LISTS = {
    "en": """
        a an the this that these those some any each every no
        i me my mine you your yours he him his she her hers it its we us our they them their
        what which who whom whose when where why how
        am is are was were be been being do does did done have has had having
        can could will would shall should may might must
        and or but nor so if then than as because while of at by for with about into onto
        to from in on off over under up down out through between after before during
        not s t ll ve re d m there here
    """,
    "es": """
        el la los las un una unos unas lo al del de a en con por para sin sobre entre hasta
        y o u e pero ni que qué quién quien cuál cual cuándo cuando dónde donde cómo como por
        porque es son soy eres somos está están estoy estás ser estar fue era hay ha han he
        yo tú tu usted ustedes él ella ellos ellas nosotros me te se le les nos mi mis su sus
        este esta estos estas ese esa eso no sí si más muy
    """,
    "fr": """
        le la les l un une des du de d au aux à a en dans sur sous avec pour par sans chez
        et ou mais ni donc or car que qu qui quoi quel quelle quels quelles quand où comment
        pourquoi combien est sont suis es sommes êtes être été était ai as avons avez ont
        je j tu il elle on nous vous ils elles me m te t se s lui leur mon ma mes ton ta tes
        son sa ses notre nos votre vos ce cet cette ces ne n pas plus très y
    """,
    "de": """
        der die das den dem des ein eine einen einem einer eines
        und oder aber denn doch sondern dass ob wenn als wie was wer wen wem wessen wann wo
        warum wieso weshalb welche welcher welches
        ist sind bin bist seid war waren sein hat habe hast haben hatte wird werden wurde
        kann können muss müssen soll sollen darf will wollen möchte
        ich du er sie es wir ihr mich dich sich mir dir uns euch mein dein sein unser euer
        in im an am auf aus bei mit nach von vom zu zum zur für über unter vor hinter durch
        nicht kein keine ja nein auch noch schon sehr
    """,
    "it": """
        il lo la i gli le un uno una l di del della dei degli delle a al alla ai agli alle
        da dal dalla in nel nella con su sul sulla per tra fra
        e ed o ma se che chi cosa quale quali quando dove come perché quanto
        è sono sei siamo siete essere era ho hai ha abbiamo avete hanno
        io tu lui lei noi voi loro mi ti si ci vi mio mia tuo tua suo sua non più molto
    """,
    "pt": """
        o a os as um uma uns umas de do da dos das em no na nos nas por pelo pela para com sem
        e ou mas nem que quem qual quais quando onde como porque porquê quanto
        é são sou és somos está estão estou ser estar foi era há tem têm tenho
        eu tu você vocês ele ela eles elas nós me te se lhe nos meu minha seu sua não sim mais
        muito
    """,
    "nl": """
        de het een en of maar dat die dit deze wat wie welke wanneer waar waarom hoe
        is zijn ben bent was waren heb hebt heeft hebben had kan kunnen moet moeten wil willen
        ik jij je u hij zij ze wij we jullie mij me mijn jouw uw zijn haar ons onze hun
        in op aan van met voor naar bij uit over onder door om tot niet geen ook nog wel er
    """,
}


WORDS: dict[str, frozenset[str]] = {lang: frozenset(text.split()) for lang, text in _LISTS.items()}


def for_text(texts: Iterable[list[str]], share: float = 0.08) -> frozenset[str]:
    """The function words of the language(s) these token lists are in: each language whose
    words make up at least ``share`` of the tokens (running text is 30-50 % function words;
    a foreign list meets a few by chance)."""
    counted: Counter[str] = Counter()
    total = 0
    for some in texts:
        counted.update(some)
        total += len(some)
    if not total:
        return frozenset()
    found: set[str] = set()
    for words in WORDS.values():
        if sum(n for term, n in counted.items() if term in words) / total >= share:
            found |= words
    return frozenset(found)

"""Words of everyday life outside work (docs/formats.md §6.10 ``private``,
§3.7 ``life``): the body and health, sport and fitness, entertainment,
hobbies and games, school, home and garden, cooking at home, family and
celebrations, pets, leisure travel. A list of the language's words, not of
any registry's: a task that holds one the registry never writes, and
nothing of the registry's world, is about private life ("Recovery plan
after knee surgery", "The front page of Reddit is full of cat pictures").
Things a shop sells (a sofa, headphones, a vacuum) are left out: a
retailer's tasks name them as work.

Nothing here imports Textual or reads a file.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterable

__all__ = ["LIFE_WORDS", "PRIVATE_WORDS", "life_words", "private_life", "written_life"]

#: the one-word entries (lowercase ASCII), a plural beside its singular
LIFE_WORDS = frozenset("""
knee knees ankle ankles elbow elbows shoulder shoulders hip hips wrist wrists spine tooth teeth toothache headache
migraine surgery physio physiotherapy injury injuries pregnancy pregnant diet calories vitamin vitamins allergy
hangover insomnia acne haircut hairdresser barber salon manicure massage
gym workout workouts hypertrophy marathon jogging yoga pilates
football soccer basketball baseball tennis golf rugby cricket hockey volleyball badminton swimming skiing
snowboarding surfing hiking camping fishing cycling karate judo chess gymnastics referee ski
movie movies cinema concert concerts song songs album albums novel novels poem poems poetry anime manga netflix
sitcom theatre theater musical karaoke podcast podcasts comedian documentary episode trailer sequel playlist
drummer guitarist festival fete contestant contestants
jigsaw crossword sudoku minecraft fortnite crochet knitting sewing pottery lego
homework essay kindergarten classmate classmates thesis dissertation phd pta
lawn garden gardening backyard remodel renovation plumber
recipe recipes baking sourdough barbecue bbq picnic
selfie selfies
wedding weddings anniversary honeymoon birthday birthdays girlfriend boyfriend fiance fiancee grandma grandpa
grandmother grandfather nephew niece toddler baby babies newborn teething
dog dogs puppy puppies cat cats kitten kittens hamster aquarium
vacation beach ryokan sightseeing
""".split())
#: kinds of everyday life a registry's own world may be (umbrella words -> the entries of the kind): a registry
#: whose Layer 1 writes an umbrella word writes the whole kind ("pets" in a veterinary clinic's descriptions:
#: "A dog was hit by a car" is its work, though no description says "dog"); kinds a business's world often is,
#: each umbrella a word that names the kind itself, not one of its things
_KINDS = (
    (("pet", "pets", "animal", "animals", "veterinary", "vet", "vets"),
     ("dog", "dogs", "puppy", "puppies", "cat", "cats", "kitten", "kittens", "hamster", "aquarium", "pet")),
    (("sport", "sports", "athlete", "athletes", "fitness"),
     ("gym", "workout", "workouts", "hypertrophy", "marathon", "jogging", "yoga", "pilates", "football", "soccer",
      "basketball", "baseball", "tennis", "golf", "rugby", "cricket", "hockey", "volleyball", "badminton",
      "swimming", "skiing", "snowboarding", "surfing", "hiking", "camping", "fishing", "cycling", "karate", "judo",
      "gymnastics", "referee", "ski")),
    (("patient", "patients", "clinical", "clinician", "clinicians"),
     ("knee", "knees", "ankle", "ankles", "elbow", "elbows", "shoulder", "shoulders", "hip", "hips", "wrist",
      "wrists", "spine", "tooth", "teeth", "toothache", "headache", "migraine", "surgery", "physio",
      "physiotherapy", "injury", "injuries", "pregnancy", "pregnant", "allergy", "insomnia", "acne")),
    (("pupil", "pupils", "student", "students", "school", "schools", "teacher", "teachers"),
     ("homework", "essay", "kindergarten", "classmate", "classmates", "thesis", "dissertation", "phd", "pta")),
)
#: the words that put a task in private life after "my" or "our" (docs/formats.md §6.10 ``private``): family,
#: a pet, home, a personal thing, leisure, travel, personal finance ("my gym", "our neighbour", "my credit card")
PRIVATE_WORDS = ("son", "daughter", "kid", "kids", "child", "children", "wife", "husband", "mum", "mom", "dad",
                 "parent", "parents", "grandma", "grandmother", "grandfather", "grandpa", "baby", "brother", "sister",
                 "girlfriend", "boyfriend", "dog", "cat", "pet", "puppy", "home", "flat", "apartment", "garden", "car",
                 "bike", "phone", "wedding", "birthday", "holiday", "vacation", "gym", "university", "homework",
                 "hobby", "family", "friend", "friends", "neighbour", "neighbor", "landlord", "doctor", "dentist",
                 "flight", "flights", "bank", "credit card", "mortgage", "insurance", "mother-in-law",
                 "father-in-law", "in-laws", "flatmate", "roommate", "housemate", "niece", "nephew", "aunt", "uncle",
                 "cousin", "fiance", "fiancee", "spouse", "stepson", "stepdaughter", "toddler", "teenager",
                 "grandson", "granddaughter", "grandkids", "grandchildren", "house", "partner", "order", "parcel",
                 "bag", "suitcase", "luggage", "boarding pass", "trip", "windscreen")
#: the entries of two words (written as they are)
_PHRASES = ("board game", "video game", "science project", "science fair", "road trip", "school project",
            "school play", "dance class", "book club", "escape room", "game show", "quiz show", "talk show",
            "reality show", "soap opera")
#: the Japanese entries (a registry writes one when a term of its texts holds it)
_JA = ("美容院", "美容室", "歯医者", "ジム", "筋トレ", "映画", "趣味", "結婚式", "誕生日", "家計", "家族旅行", "子供", "子ども",
       "ペット", "飼い猫", "飼い犬", "宿題", "夏休み", "温泉", "実家", "自宅", "料理教室", "ゲーム", "ニュース", "スキー場", "ドラマ",
       "アニメ")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def _any_of(entries) -> re.Pattern[str]:
    """Any of ``entries`` (one or more words), its words apart by any white space, in the plural too, any case."""
    return re.compile(r"\b(?:" + "|".join(e.replace(" ", r"\s+") for e in entries) + r")s?\b", re.I)


_PHRASE = _any_of(_PHRASES)
#: the two-word entries of both lists, as a registry's Layer 1 writes them
_TWO_WORDS = _any_of((*_PHRASES, *(w for w in PRIVATE_WORDS if " " in w)))
_JA_RX = re.compile("|".join(_JA))
_NAME_BEFORE = re.compile(r"([A-Za-z]+)\s+$")
_NAME_AFTER = re.compile(r"\s+([A-Za-z]+)")


def _in_name(text: str, span: tuple[int, int]) -> bool:
    """Whether the capitalised word at ``span`` is part of a name of several
    capitalised words ("Covent Garden", "Garden Hotel"), not the word."""
    if not text[span[0]].isupper():
        return False
    before = _NAME_BEFORE.search(text[max(0, span[0] - 40):span[0]])
    after = _NAME_AFTER.match(text[span[1]:span[1] + 40])
    return bool(before and before.group(1)[0].isupper()) or bool(after and after.group(1)[0].isupper())


def _singular(phrase: str) -> str:
    """A two-word entry as the list writes it: lowercase, one space, no plural ("Board  Games" -> "board game")."""
    p = " ".join(phrase.lower().split())
    return p if p in _PHRASES or p in PRIVATE_WORDS else p[:-1]


def _entry(word: str) -> str | None:
    """The entry of :data:`LIFE_WORDS` that the lowercase ``word`` is, or is
    the plural of ("beaches" -> "beach", "documentaries" -> "documentary"), or None."""
    if word in LIFE_WORDS:
        return word
    if word.endswith("s") and len(word) > 3:
        for stem in ((word[:-3] + "y") if word.endswith("ies") else "", word[:-2] if word.endswith("es") else "",
                     word[:-1]):
            if stem in LIFE_WORDS:
                return stem
    return None


def life_words(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The entries of everyday life in ``text``, ``(entry, span)`` in task
    order (``span``: character offsets; ``entry``: the list's form, lowercase
    for Latin words, whitespace as one space): a word of :data:`LIFE_WORDS`,
    or its plural ("beaches"), that is not part of a capitalised name ("Covent Garden"), a two-word
    entry ("board game") or a Japanese one (美容院, 誕生日)."""
    out = [(w, m.span()) for m in _LATIN_WORD.finditer(text)
           if (w := _entry(m.group().lower())) is not None and not _in_name(text, m.span())]
    out += [(_singular(m.group()), m.span()) for m in _PHRASE.finditer(text)]
    out += [(m.group(), m.span()) for m in _JA_RX.finditer(text)]
    return sorted(out, key=lambda x: x[1])


def written_life(latin_keys: Iterable[str], key_of: Callable[[str], str], others: Iterable[str],
                 text: str) -> list[str]:
    """The entries of everyday life a registry writes itself, sorted
    (docs/formats.md §3.7 ``life``), those of :data:`LIFE_WORDS` and
    :data:`PRIVATE_WORDS`, from its Layer 1 (descriptions and triggers):
    a Latin word whose term key (``key_of(word)``), or the word itself, is
    among ``latin_keys`` (the term keys Layer 1 writes: an inflection
    counts) or a word of a kind whose umbrella word Layer 1 writes so
    (:data:`_KINDS`: "pets" writes "dog" and "cat"), an entry of two words
    that ``text`` (Layer 1, one text) writes as they are (or in the plural:
    "credit cards"), a Japanese entry that one of ``others`` (Layer 1's
    terms in other scripts) holds."""
    keys = set(latin_keys)
    single = LIFE_WORDS.union(w for w in PRIVATE_WORDS if " " not in w)
    words = {w for w in single if w in keys or key_of(w) in keys}
    for umbrellas, kind in _KINDS:
        if any(u in keys or key_of(u) in keys for u in umbrellas):
            words.update(kind)
    words |= {_singular(f) for f in _TWO_WORDS.findall(text)}
    joined = "\n".join(others)  # one search per entry, each term on a line of its own
    words |= {j for j in _JA if j in joined}
    return sorted(words)


#: "my" or "our", at most one word, then a word of private life (:data:`PRIVATE_WORDS`)
_PRIVATE = (r"\b(?P<whose>my|our)\s+(?P<between>[\w'-]+\s+)?(?P<word>"
            + "|".join(w.replace(" ", r"\s+") for w in sorted(PRIVATE_WORDS, key=len, reverse=True))
            + r"|(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
              r"fifteen|sixteen|seventeen)[- ]year[- ]olds?)(?:'s)?\b")


#: the people a business serves, earlier in the same sentence: their "my" is reported, not the writer's
_REPORTED = re.compile(r"\b(?:customer|client|guest|passenger|patient|policyholder|tenant|caller|member|shopper|"
                       r"traveller|traveler)s?\b(?:'s)?[^.!?\n]*$", re.I)
#: the writer as a consumer of some business's service, asking what it owes them or what they may do: "what am I
#: entitled to", "am I still in the cooling-off period", "will they cancel me", "should I accept it", "is it worth
#: paying for", "can I claim ...", "the trainers I bought", "メルカリで買った", "私が乗る予定の便"
_CONSUMER = (
    r"\b(?:am\s+I\s+(?:still\s+)?(?:entitled|owed|eligible|covered|in\s+the\s+cooling)|"
    r"will\s+they\s+(?:still\s+)?(?:cancel|refund|charge|pay|cover|reimburse|fine)\s+me|"
    r"should\s+I\s+(?:accept|take|pay|claim)\s+(?:it|them|that|the|their)|"
    r"is\s+it\s+worth\s+(?:paying|buying|getting|upgrading)|"
    r"can\s+I\s+(?:still\s+)?(?:claim|swap|exchange|return|cancel|get\s+(?:a\s+|my\s+)?(?:refund|money))|"
    r"(?:where|how)\s+can\s+I\s+(?:buy|get\s+hold\s+of)|can\s+I\s+pay\s+(?:with|by|in)|"
    r"I\s+(?:bought|purchased))\b|"
    r"(?<![\u4e00-\u9fff])(?:私|僕|俺|自分)(?:が|の)(?:乗る|買った|注文した|予約した|頼んだ|スーツケース|荷物|便|注文|航空券)|"
    r"(?<=[ァ-ヿ\u4e00-\u9fffA-Za-z])で買った")


#: a parent or grandparent named with no word before it ("because mum went into hospital", "remind me to call
#: mum"): the writer's own, as "my mum" is; written in lowercase or with a capital ("MoM", month on month, is none),
#: not after an article, a possessive or a name's "'s" ("the guest's mum", "a dad of three")
_BARE_KIN = (r"(?<![\w'’-])(?:[Mm](?:um|om|ummy|ommy)|[Dd]ad(?:dy)?|[Gg]ran(?:dma|dpa|ny)?)\b"
             r"(?![-'’]\w)(?!\s+[A-Z])")  # not "Mum-and-baby", "Granny Smith", "Gran Turismo"
#: what makes a bare parent someone else's: an article, a possessive or a name's "'s" before it
_KIN_OWNER = re.compile(r"(?:\b(?:a|an|the|his|her|its|your|their|whose|my|our)|['’]s)\s+$", re.I)


#: "the" before one's own family as British English says it ("the wife", "the kids at home"): the writer's, unless
#: the registry writes the word (a nursery's "kids" is its work)
_THE_FAMILY = r"\bthe\s+(kids|kiddies|wife|hubby|missus|in-laws|grandkids)\b(?!-)"


def _reported(text: str, start: int) -> bool:
    """Whether a customer, guest, passenger ... earlier in the sentence
    (within 120 characters) reports the words at ``start``."""
    return _REPORTED.search(text[max(0, start - 120):start]) is not None


#: words of private life after "my" only: "our house wine", "our partner hotels", "our flat whites" (a newcomer's
#: cafe: "What's the gross margin on our flat whites?" read as private life) are the business's
_MY_ONLY = frozenset({"house", "partner", "flat"})
#: one member of a family, or one pet, right after "our" is the writer's own even where the registry writes the word
#: (a pet insurer's descriptions say "dog": "Our dog's vet fees are huge" is still a household's); plurals ("our dogs"
#: at a kennel, "our kids" at a nursery) may be the business's, and so is a word between ("our customer's dog")
_OURS_PRIVATE = frozenset({"son", "daughter", "kid", "child", "wife", "husband", "mum", "mom", "dad", "grandma",
                           "grandmother", "grandfather", "grandpa", "brother", "sister", "girlfriend", "boyfriend",
                           "dog", "cat", "puppy", "mother-in-law", "father-in-law", "stepson", "stepdaughter",
                           "toddler", "grandson", "granddaughter", "niece", "nephew", "fiance", "fiancee"})
#: Japanese seldom says "my": a word for one's family or home says it ("夫の弁当", "実家の父", "子供の宿題"); a
#: one- or two-kanji word for a relative only as a word of its own (no kanji before it: 分母, 祖母 is its own) with a
#: particle after it (not 母の日, 父の日: a shop's season); 私の/うちの/自分の before a thing of private life
_JA_PRIVATE = (r"実家|自宅|(?<!ご)家族|うちの子|(?<![\u4e00-\u9fff])家の|"
               r"(?<![ご\u4e00-\u9fff])(?:友人|友達)(?=[のがはとにもを])|"
               r"(?<![\u4e00-\u9fff])(?:夫|妻|旦那|嫁|息子|娘|父|母|両親|祖父|祖母|兄|姉|弟|妹|孫|義母|義父|彼氏|"
               r"子供|子ども)(?=[のがはとにもを])(?!の日)|"
               r"(?:私|僕|俺|自分|うち)の(?:車|犬|猫|家|スマホ|携帯|パソコン|誕生日|結婚式|趣味|子)")


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """:data:`_PRIVATE`, :data:`_CONSUMER`, :data:`_THE_FAMILY`,
    :data:`_BARE_KIN` and :data:`_JA_PRIVATE`, compiled on first use: 15 ms
    of start-up that a build, which never reads them, spent."""
    return (re.compile(_PRIVATE, re.I), re.compile(_CONSUMER, re.I), re.compile(_THE_FAMILY, re.I),
            re.compile(_BARE_KIN), re.compile(_JA_PRIVATE))


def private_life(text: str, writes: Callable[[str], bool] | None = None) -> str | None:
    """The words that put ``text`` in private life (docs/formats.md §6.10
    ``private``), else None: "my" or "our", at most one word, then a word
    of :data:`PRIVATE_WORDS` for family, a pet, home,
    a personal thing, leisure, travel or personal finance ("my gym", "my
    dog's", "our neighbour", "my credit card", "my mother-in-law"), or a
    child's age ("my 15-year-old"). ``writes``, when given,
    says whether the registry writes that word itself (lowercase, one space
    between words): after "our" such a word is the business's own world,
    not private life ("our gym" to a chain of gyms, whose descriptions say
    "gym"), and the next such phrase is looked for; "my" stays personal
    ("my credit card" to an airline with a co-brand card); "house",
    "flat" and "partner" are private after "my" only ("our house wine",
    "our flat whites", "our partner
    hotels"); right after "our", one member of a family or one pet
    (:data:`_OURS_PRIVATE`: "our dog", "our son") is private even where the
    registry writes the word; a "my" after a customer, guest, passenger ...
    earlier in its sentence is their reported word and no private life. In Japanese,
    which seldom says "my", a word for one's family or home says it
    (:data:`_JA_PRIVATE`: "夫の弁当", "実家の父", "子供の宿題", "私の車", "友人が";
    not ご家族, a guest's family, nor 子供用, a thing for children). After
    "my ...", before the Japanese words: the writer as some business's
    consumer, asking what it owes them or what they may do
    (:data:`_CONSUMER`: "what am I entitled to", "will they cancel me",
    "should I accept it", "is it worth paying", "can I claim", "where can
    I buy", "can I pay with", "I bought", "メルカリで買った", "私が乗る予定の便"),
    unless a customer, guest ... earlier in its sentence reports it. Then
    "the kids", "the wife" ... (:data:`_THE_FAMILY`), unless the registry
    writes the word (``writes``: a nursery's "kids"). Then
    a parent or grandparent named bare, with no article or possessive
    before it (:data:`_BARE_KIN`: "because mum went into hospital",
    "remind me to call mum"; not "the guest's mum", "MoM", "Granny Smith").
    The words are the languages', not any registry's. Returns the words as
    the text has them."""
    private, consumer, the_family, bare_kin, ja_private = _patterns()
    for m in private.finditer(text):
        word = " ".join(m.group("word").lower().split())
        if _reported(text, m.start()):
            continue  # a customer's own words ("A customer emailed asking where is my order"): the business's work
        if m.group("whose").lower() != "our" or (word in _OURS_PRIVATE and not m.group("between")) or (
                word not in _MY_ONLY and (writes is None or not writes(word))):
            return m.group()
    m = consumer.search(text)
    if m is not None and not _reported(text, m.start()):
        return m.group()
    for m in the_family.finditer(text):
        word = m.group(1).lower()
        if (writes is None or not writes(word)) and not _reported(text, m.start()):
            return m.group()
    for m in bare_kin.finditer(text):
        if not _KIN_OWNER.search(text, max(0, m.start() - 12), m.start()) and not _reported(text, m.start()):
            return m.group()
    m = ja_private.search(text)
    return m.group() if m is not None else None

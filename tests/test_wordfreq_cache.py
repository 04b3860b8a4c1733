"""The word-frequency cache of the build (routelens.artifacts.wordfreq_cache):
exactly wordfreq's frequencies, and never trusted when damaged."""

from __future__ import annotations

import wordfreq

from routelens.artifacts import wordfreq_cache as wc


def _files(folder):
    return sorted(folder.glob("wordfreq-*.words"))


def test_the_cache_gives_wordfreqs_frequency_of_every_word(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path))
    for lang in ("en", "ja"):
        first = wc.frequencies(lang)  # read through wordfreq, and written
        assert isinstance(first, dict)
        cached = wc.frequencies(lang)
        assert isinstance(cached, wc.Frequencies)
        truth = wordfreq.get_frequency_dict(lang)
        assert len(cached.words) == len(truth)
        assert first == truth
        for word, freq in truth.items():
            assert cached.get(word) == freq, (lang, word)  # the same float, not a close one
        for missing in ("", "zzzzqqqq-not-a-word", "\uffff", " "):
            if missing not in truth:
                assert cached.get(missing) is None
    assert [p.name.split("-")[1] for p in _files(tmp_path)] == ["en", "ja"]


def test_a_damaged_or_foreign_cache_is_rebuilt_never_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path))
    wc.frequencies("ja")
    (path,) = _files(tmp_path)
    good = path.read_bytes()
    truth = wordfreq.get_frequency_dict("ja")
    word = next(iter(truth))
    for bad in (good[:-1], good[:200], good[:-5] + b"xxxxx", b"", good.replace(wc.FORMAT, b"routelens-wordfreq-cache 0\n")):
        path.write_bytes(bad)
        again = wc.frequencies("ja")
        assert isinstance(again, dict) and again.get(word) == truth[word]  # read through wordfreq
        assert path.read_bytes() == good  # and written again
    # a file of another key (another wordfreq install) is removed when the new one is written
    stale = tmp_path / "wordfreq-ja-0000.words"
    stale.write_bytes(good)
    path.unlink()
    wc.frequencies("ja")
    assert _files(tmp_path) == [path]


def test_no_cache_when_switched_off_or_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    assert isinstance(wc.frequencies("en"), dict)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(blocked / "cache"))
    assert wc.frequencies("en").get("the") == wordfreq.get_frequency_dict("en")["the"]
    assert not (blocked / "cache").exists()

"""The documents the specification is read from, by citation key.

Every rule, option and preset cites these keys; the docs' bibliography describes each source.
The readings taken where the sources disagree are numbered C1 to C28 on the docs' page "Where
the sources disagree" (``disagreements.html``).
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["SOURCES", "Source", "check_source_keys"]


@frozen
class Source:
    """One cited document."""

    key: str
    """The citation key used in rule metadata, docs and test names."""
    title: str
    """What the document is, in English."""
    language: str
    """The language it is written in."""
    seed: str | None
    """The file name of the stored copy among the seeds, if there is one."""
    url: str | None
    """Where the original can be found, if known."""
    note: str
    """What the document contributes and how reliable it is."""


SOURCES: dict[str, Source] = {
    source.key: source
    for source in (
        Source(
            key="SUWIKI",
            title="Sundanese Wikipedia, article 'Gapléh' (a revision-difference page)",
            language="Sundanese",
            seed="000_6294f72942b11093.txt",
            url=None,
            note=(
                "The only source for partnership scoring: points from the opponents' tiles, the "
                "blocked-hand challenge (neunggar cadas), dead and closing doubles, a target of "
                "500. A skipped player passes. Lists house rules."
            ),
        ),
        Source(
            key="PAGAT-ID",
            title="Indonesian rendering of pagat.com's Gaple page",
            language="Indonesian",
            seed="001_e9a605deaa72cad3.txt",
            url=None,
            note=(
                "Close translation of PAGAT including its three tie-break examples; adds errors "
                "(five players with seven tiles, 'skip the next turn', 'most points wins')."
            ),
        ),
        Source(
            key="DOMINO4D",
            title="domino4d guide: an agreed four-player example",
            language="Indonesian",
            seed="002_40997f537d241726.txt",
            url=None,
            note=(
                "Four players with seven tiles, 0-0 opens the first round, a stuck player passes; "
                "worked legal-move examples; leaves ties and later openers to agreement."
            ),
        ),
        Source(
            key="BLOCK100",
            title="Indonesian article: six tiles each, one starter, first to 100",
            language="Indonesian",
            seed="003_e31d2ec3e4d4b306.txt",
            url=None,
            note=(
                "pagat-derived: 4 x 6 with a turned-up starter, face-down discards that count, "
                "tie-breaks, the winner scores the differences, first to 100."
            ),
        ),
        Source(
            key="CHIPS",
            title="Indonesian article: 4 x 6 with four undealt tiles and chips",
            language="Indonesian",
            seed="004_7803979de875bc0a.txt",
            url=None,
            note=(
                "pagat-derived: the chips settlement example (15 in all), cumulative totals over "
                "several rounds, the team of the winning player, the 0-0 = 25 option."
            ),
        ),
        Source(
            key="PAGAT",
            title="pagat.com, 'Gaple' (John McLeod's card and tile game rules)",
            language="English",
            seed=None,
            url="http://www.pagat.com/tile/wdom/gaple.html",
            note=(
                "The primary English source: deals 4 x 7, 4 x 6 and 5 x 5, the 0-0 and double "
                "openers, discarding (passing as a variation), counting and settlements."
            ),
        ),
        Source(
            key="LAMPUNG",
            title="Lampung provincial tournament rules (2018), partnership",
            language="Indonesian",
            seed=None,
            url=None,
            note="Challenge stakes beyond the seeds: x2 the opponents' pips on a win, x3 on a loss",
        ),
        Source(
            key="KAMPUNG2009",
            title="Neighbourhood tournament rules (2009), partnership",
            language="Indonesian",
            seed=None,
            url=None,
            note="A drawn challenge is replayed; 0-0 and 6-6 may not be led.",
        ),
    )
}
"""Every citable source, by key."""


def check_source_keys(keys: tuple[str, ...]) -> tuple[str, ...]:
    """Return ``keys`` unchanged after checking that each names a source.

    Raises:
        KeyError: a key is not in :data:`SOURCES`.
    """
    for key in keys:
        if key not in SOURCES:
            msg = f"unknown source key {key!r}; known keys: {', '.join(SOURCES)}"
            raise KeyError(msg)
    return keys

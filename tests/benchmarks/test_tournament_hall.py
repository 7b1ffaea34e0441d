"""benchmarks/tournament_hall.py at four tables, so the hall-sized run cannot rot: the real
Mosquitto, ``guandan hall serve --web`` and table nodes, every result through to the
standings' and the page's pushes, confirmed with the seat buttons, and round 2 told to
every table."""

from benchmarks.tournament_hall import Options, report, run
from tests.hall.broker import needs_mosquitto


@needs_mosquitto
def test_a_round_of_four_tables_is_measured_from_the_results_to_round_2_at_every_table(tmp_path):
    options = Options(tables=4, spread=2.0, rate=2.0, confirm_after=0.3, matches=1, hands=1, settle_s=60.0)
    said: list[str] = []
    figures = run(options, tmp_path, log=said.append)
    assert figures.complete, said + report(figures)
    assert set(figures.results) == set(figures.standings) == set(figures.told_round2) == {"1", "2", "3", "4"}
    for table, written in figures.results.items():
        assert written < figures.standings[table] and written < figures.page[table]
        assert figures.confirm_sent[table] < figures.told_final[table] < figures.draw_started
    lines = report(figures)
    assert lines[1].startswith("result → standings pushed (overlay): 4 of 4;")
    assert any(line.startswith("round 2: drawn in") and "4 of 4 tables told" in line for line in lines)

"""Rule profiles are data: every bundled file loads, and a bad file names file and key."""

import pytest

from engine.profile import ProfileError
from rulebook import profiles


@pytest.mark.parametrize("name", ["jiangsu", "linyi", "linyi_notice", "linquan"])
def test_bundled_profiles_load(name):
    assert profiles.load(name).name == name


def test_profiles_hold_the_disagreements_of_rules_md():
    j, ly, lq, notice = (profiles.load(n) for n in ("jiangsu", "linyi", "linquan", "linyi_notice"))
    assert (j.report.threshold, ly.report.threshold, lq.report.threshold) == (10, 10, 7)
    assert (j.tribute.double_down_equal, ly.tribute.double_down_equal, lq.tribute.double_down_equal) == (
        "counter_clockwise", "clockwise", "tributers_choose")
    assert (j.match.minutes, ly.match.minutes, lq.match.minutes, j.match.knockout_minutes) == (60, 30, 55, 120)
    assert (j.levels.a_failure_limit, lq.levels.a_failure_limit) == (0, 3)
    assert (j.match.tie, ly.match.tie, notice.match.tie, lq.match.tie) == (
        "extra_hand", "extra_hand", "first_to_level", "draw")
    assert (j.match.forfeit.level_points, ly.match.forfeit.level_points, notice.match.forfeit.level_points) == (
        17, 17, 14)
    assert (lq.match.forfeit.points, lq.match.forfeit.small_points, lq.match.bye.points) == (2, 0, 1)
    assert (ly.time.tribute, ly.time.give_back, ly.time.first_lead, ly.time.play) == (20, 40, 40, 20)
    assert (notice.time.first_lead, notice.time.play) == (20, 10)
    assert (j.time.give_back, j.time.first_lead, j.time.play) == (40, 30, 30)
    assert [s.levels for s in j.time.stalling] == [1, 2, 3]
    assert ly.tiebreak.chain == ["points", "wins", "upgrades", "level_points", "lot"]
    assert lq.tiebreak.chain == ["points", "small_points", "lot"]
    assert lq.tribute.return_to_partner.max_rank == "T" and not lq.tribute.return_to_partner.level_cards
    assert ly.tribute.return_to_opponent.level_cards and not j.tribute.return_to_partner.jokers
    assert (ly.match.time_called_counts, lq.match.time_called_counts) == ("first_play", "deal")


def _write(tmp_path, text, name="event.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_extends_overrides_only_what_it_names(tmp_path):
    path = _write(tmp_path, 'extends = "linquan"\n[report]\nthreshold = 5\n')
    p = profiles.load(path)
    assert p.report.threshold == 5
    assert p.match.minutes == 55


def test_unknown_key_names_file_and_key(tmp_path):
    path = _write(tmp_path, 'extends = "linyi"\n[report]\nthreshhold = 5\n')
    with pytest.raises(ProfileError) as err:
        profiles.load(path)
    assert err.value.key == "report.threshhold" and path in str(err.value)
    assert "unknown key" in str(err.value)


def test_missing_key_names_file_and_key(tmp_path):
    text = (profiles.HERE / "linquan.toml").read_text(encoding="utf-8").replace("threshold = 7\n", "")
    path = _write(tmp_path, text)
    with pytest.raises(ProfileError, match=r"report\.threshold: missing key"):
        profiles.load(path)


def test_ill_typed_and_unknown_values_are_refused(tmp_path):
    with pytest.raises(ProfileError, match=r"report\.threshold: expected a whole number"):
        profiles.load(_write(tmp_path, 'extends = "linyi"\n[report]\nthreshold = "ten"\n', "a.toml"))
    with pytest.raises(ProfileError, match=r"match\.tie: 'coin' is not one of"):
        profiles.load(_write(tmp_path, 'extends = "linyi"\n[match]\ntie = "coin"\n', "b.toml"))
    with pytest.raises(ProfileError, match="not valid TOML"):
        profiles.load(_write(tmp_path, "[report\n", "c.toml"))


def test_unknown_profile_lists_the_bundled_ones():
    with pytest.raises(ProfileError, match="jiangsu, linquan, linyi, linyi_notice"):
        profiles.load("shanghai")

"""Settings -> Club server: the view-model (save, errors under their fields, Sync now against a
club server in-process, the last sync in words in English and Finnish) and the app's sync on
its own (after a save, on its timer, never two at once, backing off while out of reach)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from store_deals import rommi_deal
from sync_kit import URL, ClientTransport, league_fact_ids, play, server_client

from scorer.league.club_server import ClubServer
from scorer.league.store import Store
from scorer.league.sync import Reply, Transport
from scorer.ui import club_sync
from scorer.ui.club_sync import ClubSync, backoff
from scorer.ui.engine_text import field_text
from scorer.ui.screens.club_server_model import ClubServerModel, result_text


def _server() -> tuple[Store, Any]:
    server = Store.memory()
    return server, server_client(server)


def _transport(client: Any) -> Any:
    """Each sync reaches the in-process server with the token saved in Settings."""

    def make(saved: ClubServer) -> Transport:
        return ClientTransport(client, saved.token, url=saved.url)

    return make


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(coroutine: Any) -> Any:
    """Run ``coroutine`` to its end in an event loop of its own, on a thread of its own: the
    browser tests' Playwright keeps an event loop running on the main thread for the session,
    and asyncio.run refuses to start inside one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# -- the section's view-model -------------------------------------------------------------------


def test_the_only_league_is_chosen_and_a_bad_address_is_said_under_its_field(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "phone")
    league = store.create_league("Tuesday Club")
    model = ClubServerModel.load(store)
    assert model.league == league.id and model.leagues() == [(league.id, "Tuesday Club")]
    model.set_url("club.example.org")
    model.set_token("rk_secret_1234")
    assert model.save() is False
    assert "'club.example.org'" in model.url_problem and not model.token_problem
    assert "http://" in field_text(model.url_problem, "fi") and "osoite" in field_text(
        model.url_problem, "fi"
    )
    assert store.club_server() is None
    model.set_url("https://club.example.org")
    assert model.url_problem == ""  # typing again clears it


def test_no_token_is_said_under_the_token_field(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "phone")
    store.create_league("Club")
    model = ClubServerModel.load(store)
    model.set_url("https://club.example.org")
    assert model.save() is False
    assert "token" in model.token_problem and not model.url_problem
    assert "avain" in field_text(model.token_problem, "fi")


def test_a_saved_token_is_never_shown_back_and_an_empty_field_keeps_it(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "phone")
    store.create_league("Club")
    model = ClubServerModel.load(store)
    model.set_url("https://club.example.org/")
    model.set_token("rk_secret_9Q7Z")
    assert model.save() is True
    assert model.token == "" and model.token_tail == "9Q7Z" and model.url == "https://club.example.org"
    again = ClubServerModel.load(store)  # Settings opened again
    assert again.token == "" and again.token_tail == "9Q7Z"
    again.set_url("https://other.example.org")
    assert again.save() is True
    assert store.club_server() == ClubServer("https://other.example.org", "rk_secret_9Q7Z", again.league)
    again.forget()
    assert store.club_server() is None and again.token_tail == ""


def test_sync_now_sends_the_games_and_says_so_in_both_languages(tmp_path: Path) -> None:
    server, client = _server()
    phone = Store.open(tmp_path / "phone")
    league = phone.create_league("Club").id
    play(phone, league, ["Anna", "Bea"], 2)
    club = ClubSync(phone, transport_for=_transport(client))
    model = ClubServerModel.load(phone, club)
    model.set_url(URL)
    model.set_token(client.secrets["director"])  # a league new to the server: a director's
    assert model.save()
    outcome = run(model.sync_now())
    assert outcome is not None and outcome.ok and model.outcome is outcome and not model.syncing
    assert league_fact_ids(server, league) == league_fact_ids(phone, league)
    sent = outcome.report.sent
    assert sent == len(league_fact_ids(phone, league))
    assert result_text(outcome, "en", store=phone) == f"Sent {sent}, received 0."
    assert result_text(outcome, "fi", store=phone) == f"Lähetetty {sent}, vastaanotettu 0."


def test_a_game_changed_on_both_sides_is_named_in_the_result(tmp_path: Path) -> None:
    server, client = _server()
    league = server.create_league("Club").id
    shared = play(server, league, ["Anna", "Bea", "Cecilia"], 2)
    phone = Store.open(tmp_path / "phone")
    phone.set_club_server(URL, client.secrets["scorer"], league)
    club = ClubSync(phone, transport_for=_transport(client))
    assert club.sync_now().ok  # the phone has the game now
    players = ("Anna", "Bea", "Cecilia")
    server.add_deal(shared, rommi_deal(players, 0, [0, 1]))  # deal 3, apart
    phone.add_deal(shared, rommi_deal(players, 1, [1, 0]))
    outcome = club.sync_now()
    assert outcome is not None and outcome.report is not None
    assert {c.get("game") for c in outcome.report.conflicts} == {shared}
    day = phone.game(shared).played[:10]
    text = result_text(outcome, "en", store=phone)
    assert f"1 game changed on both sides apart: Anna, Bea, Cecilia ({day})" in text
    assert f"{outcome.report.not_applied} facts could not apply" in text
    assert "1 peli muuttui molemmilla puolilla erikseen: Anna, Bea, Cecilia" in result_text(
        outcome, "fi", store=phone
    )


def test_a_server_out_of_reach_is_said_in_the_screens_language_and_kept_as_the_last_result(
    tmp_path: Path,
) -> None:
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    url = f"http://127.0.0.1:{_closed_port()}"
    model = ClubServerModel.load(phone, ClubSync(phone))  # over HTTP, for real
    model.set_url(url)
    model.set_token("rk_secret_1234")
    assert model.save()
    outcome = run(model.sync_now())
    assert outcome is not None and not outcome.ok
    assert result_text(outcome, "en").startswith(f"cannot reach the club server {url}")
    assert result_text(outcome, "fi").startswith(f"kerhon palvelinta {url}") or url in result_text(
        outcome, "fi"
    )
    assert result_text(outcome, "fi") != result_text(outcome, "en")
    assert "rk_secret" not in result_text(outcome, "en")
    assert ClubServerModel.load(phone, model.club).outcome is outcome  # Settings opened again


def test_a_token_refused_is_said(tmp_path: Path) -> None:
    _, client = _server()
    phone = Store.open(tmp_path / "phone")
    phone.create_league("Club")
    phone.set_club_server(URL, "rk_not_a_token_0000", "Club")
    outcome = ClubSync(phone, transport_for=_transport(client)).sync_now()
    assert outcome is not None and outcome.error is not None
    assert outcome.error.code == "sync.bad_token"
    assert "401" in result_text(outcome, "en")


def test_no_club_server_set_syncs_nothing() -> None:
    store = Store.memory()
    assert ClubSync(store).sync_now() is None
    assert run(ClubServerModel.load(store, ClubSync(store)).sync_now()) is None


# -- on its own -----------------------------------------------------------------------------------


class _Held:
    """A transport whose first request waits until released (a slow server)."""

    def __init__(self, inner: Transport) -> None:
        self.inner, self.url = inner, inner.url
        self.entered, self.release = threading.Event(), threading.Event()

    def send(self, method: str, path: str, body: Any) -> Reply:
        self.entered.set()
        assert self.release.wait(10)
        return self.inner.send(method, path, body)


def test_never_two_syncs_at_once(tmp_path: Path) -> None:
    _, client = _server()
    phone = Store.open(tmp_path / "phone")
    league = phone.create_league("Club").id
    phone.set_club_server(URL, client.secrets["director"], league)
    held = _Held(ClientTransport(client, client.secrets["director"]))
    club = ClubSync(phone, transport_for=lambda _s: held)
    first = threading.Thread(target=club.sync_now)
    first.start()
    assert held.entered.wait(10)
    assert club.syncing
    assert club.sync_now() is None  # the second ask finds one under way
    held.release.set()
    first.join(10)
    assert not club.syncing and club.last is not None and club.last.ok


def _clock() -> list[float]:
    return [1000.0]


def test_a_change_is_synced_after_a_pause_and_the_syncs_own_writes_are_not(tmp_path: Path) -> None:
    _, client = _server()
    phone = Store.open(tmp_path / "phone")
    league = phone.create_league("Club").id
    phone.set_club_server(URL, client.secrets["director"], league)
    now = _clock()
    club = ClubSync(phone, transport_for=_transport(client), clock=lambda: now[0])
    assert club.due_in() == club_sync.AFTER_SAVE  # soon after the start
    assert club.sync_now().ok
    assert club.due_in() == club_sync.SYNC_EVERY
    club.changed()  # nothing new since the sync: no sync sooner
    assert club.due_in() == club_sync.SYNC_EVERY
    play(phone, league, ["Anna", "Bea"], 1)
    club.changed()
    assert club.due_in() == club_sync.AFTER_SAVE
    now[0] += 4
    play(phone, league, ["Anna", "Bea"], 1)
    club.changed()  # the last change counts
    assert club.due_in() == club_sync.AFTER_SAVE


def test_failures_back_off_and_a_save_waits_for_it(tmp_path: Path) -> None:
    phone = Store.open(tmp_path / "phone")
    league = phone.create_league("Club").id
    phone.set_club_server(f"http://127.0.0.1:{_closed_port()}", "rk_secret_1234", league)
    now = _clock()
    club = ClubSync(phone, clock=lambda: now[0])
    for failures in (1, 2, 3):
        assert not club.sync_now().ok
        assert club.failures == failures and club.due_in() == backoff(failures)
    play(phone, league, ["Anna", "Bea"], 1)
    club.changed()
    assert club.due_in() == backoff(3)  # out of reach: a save does not hasten it
    club.configured()  # Settings saved the server again: try now
    assert club.failures == 0 and club.due_in() == 0


def test_the_apps_task_syncs_after_a_save_and_on_its_timer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(club_sync, "AFTER_SAVE", 0.2)
    monkeypatch.setattr(club_sync, "SYNC_EVERY", 0.6)
    server, client = _server()
    phone = Store.open(tmp_path / "phone")
    league = phone.create_league("Club").id
    phone.set_club_server(URL, client.secrets["director"], league)
    transport = ClientTransport(client, client.secrets["director"])
    club = ClubSync(phone, transport_for=lambda _s: transport)

    async def until(check: Any, what: str) -> None:
        for _ in range(200):  # up to 10 s on a loaded machine
            if check():
                return
            await asyncio.sleep(0.05)
        pytest.fail(f"never: {what}")

    async def scenario() -> None:
        club.start(asyncio.get_running_loop())
        club.start(asyncio.get_running_loop())  # a second session: still one task
        await until(lambda: club.last is not None, "the first sync, soon after the start")
        assert club.last is not None and club.last.ok
        play(phone, league, ["Anna", "Bea"], 2)
        club.changed()
        await until(
            lambda: league_fact_ids(server, league) == league_fact_ids(phone, league), "the save synced"
        )
        await until(lambda: not club.syncing, "the sync's end")
        before, calls = club.last, len(transport.calls)
        await until(lambda: club.last is not before, "a sync on the timer, with nothing new")
        assert len(transport.calls) > calls
        assert club.last is not None and club.last.ok and club.last.report is not None
        assert club.last.report.sent == 0
        club.stop()

    run(scenario())

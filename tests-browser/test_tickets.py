"""The explorer on a definition that is not the demo (examples/tickets.yaml): nothing in the page
knows tickets, so what it shows comes from the definition through the API alone."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import API, APIKeys, close_explorer, environment, open_explorer
from explorer_page import (
    choose, delete_problem, delete_shown_item, detail_text, drain_console, enter_key, first_titles, key_label, open_by_search, row_titles,
    settled, texts, wait,
)


@pytest.fixture(scope="module")
def tickets_keys():
    """Keys for the tickets server: its scopes name its own collections, so the CLI is given
    the same definition the server serves."""
    return APIKeys(environment("ROWSERVER_BIN"), environment("ROWSERVER_TICKETS_DB"), environment("ROWSERVER_TICKETS_COLLECTIONS"))


@pytest.fixture(scope="module")
def tickets_api(tickets_keys):
    url = os.environ.get("ROWSERVER_TICKETS_URL")
    if not url:
        pytest.fail("ROWSERVER_TICKETS_URL is not set: run scripts/browser-test.sh")
    api = API(url.rstrip("/"), key=tickets_keys.create("ticket fixtures", "write"))
    status, _, agent = api.request("POST", "/v1/agents", {"name": "Ana Díaz", "email": "ana@example.com", "team": "billing"})
    assert status == 201, agent
    for index, (subject, status_value, priority) in enumerate(
        [("Printer jams", "open", 2), ("VPN drops", "pending", 1), ("Invoice wrong", "open", 3), ("Password reset", "solved", 4)]
    ):
        status, _, body = api.request(
            "POST", "/v1/tickets",
            {"subject": subject, "status": status_value, "priority": priority, "opened": f"2026-11-1{index}", "assigneeID": agent["id"],
             "description": "**Steps** to reproduce", "credit": {"minorUnits": 1250, "currency": "EUR"}},
        )
        assert status == 201, body
    return api


@pytest.fixture
def tickets_page(browser, tickets_api):
    browser.set_window_size(1400, 900)
    open_explorer(browser, tickets_api.base_url)
    yield browser
    close_explorer(browser)


def test_the_sidebar_and_rows_come_from_the_definition(tickets_page, tickets_api, screenshots):
    index = tickets_api.get("/v1")["collections"]
    assert texts(tickets_page, ".collection") == [c["title"] for c in index] == ["Agents", "Tickets"]
    body = choose(tickets_page, tickets_api, "tickets")
    assert row_titles(tickets_page)[: len(body["rows"])] == first_titles(body)
    assert first_titles(body) == ["VPN drops", "Printer jams", "Invoice wrong", "Password reset"]
    tickets_page.save_screenshot(str(screenshots / "tickets-rows.png"))


def test_tickets_are_sectioned_by_status(tickets_page, tickets_api, screenshots):
    body = choose(tickets_page, tickets_api, "tickets", mode="sections")
    assert texts(tickets_page, "#list .section-header") == [section["header"] for section in body["sections"]] == ["Open", "Pending", "Solved"]
    tickets_page.save_screenshot(str(screenshots / "tickets-sections.png"))


def test_the_table_shows_the_assignees_name(tickets_page, tickets_api):
    body = choose(tickets_page, tickets_api, "tickets", mode="table")
    headers = texts(tickets_page, "#list th")
    assert [column["title"] for column in body["columns"]][1:] == [h.strip() for h in headers if h.strip()][-(len(body["columns"]) - 1):]
    assert "Ana Díaz" in texts(tickets_page, "#list td")


def test_a_tickets_detail_is_headed_by_its_row_title(tickets_page, tickets_api, screenshots):
    body = choose(tickets_page, tickets_api, "tickets")
    row = body["rows"][1]
    tickets_page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]').click()
    wait(tickets_page, lambda: settled(tickets_page) and tickets_page.find_elements(By.ID, "detail-heading")
         and tickets_page.find_element(By.ID, "detail-heading").text == row["title"])
    detail = tickets_api.get(row["detail"])
    shown = detail_text(tickets_page)
    assert detail["assignee"]["name"] in shown
    assert detail["credit"]["formatted"] in shown
    tickets_page.save_screenshot(str(screenshots / "tickets-detail.png"))


def test_a_key_for_agents_cannot_delete_a_ticket_and_one_for_tickets_can(tickets_page, tickets_api, tickets_keys, screenshots):
    status, _, ticket = tickets_api.request("POST", "/v1/tickets", {"subject": "Delete me", "status": "closed", "priority": 4, "opened": "2026-11-20"})
    assert status == 201, ticket
    enter_key(tickets_page, tickets_keys.create("agents only", "write:agents"))
    wait(tickets_page, lambda: key_label(tickets_page) == "API key set")
    choose(tickets_page, tickets_api, "tickets")
    open_by_search(tickets_page, "Delete me")
    delete_shown_item(tickets_page)
    alert = delete_problem(tickets_page)
    wait(tickets_page, lambda: alert.is_displayed() and "does not allow" in alert.text, message="the 403 is shown")
    assert alert.get_attribute("data-code") == "KEY_SCOPE"
    assert "write:tickets" in alert.text, "the server's detail names the scope it needs"
    tickets_page.save_screenshot(str(screenshots / "tickets-key-scope.png"))
    assert tickets_api.get(ticket["links"]["self"])["subject"] == "Delete me"
    # Change Key opens the dialog; a key for tickets replaces the first one, and the detail is read again.
    alert.find_element(By.CSS_SELECTOR, ".key-fix").click()
    field = tickets_page.find_element(By.ID, "key-input")
    wait(tickets_page, lambda: field.is_displayed())
    field.send_keys(tickets_keys.create("tickets", "write:tickets"), Keys.ENTER)
    wait(tickets_page, lambda: not field.is_displayed())
    wait(tickets_page, lambda: tickets_page.find_elements(By.CSS_SELECTOR, '#detail [data-action="delete"]')
         and not tickets_page.find_elements(By.CSS_SELECTOR, "#detail .problem"), message="the detail is read again")
    delete_shown_item(tickets_page)
    wait(tickets_page, lambda: "Deleted" in detail_text(tickets_page), message="deleted")
    assert tickets_api.request("GET", ticket["links"]["self"])[0] == 404
    drain_console(tickets_page, ["status of 403"])

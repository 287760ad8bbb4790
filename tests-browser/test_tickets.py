"""The explorer on a definition that is not the demo (examples/tickets.yaml): nothing in the page
knows tickets, so what it shows comes from the definition through the API alone."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import API
from test_explorer import choose, detail_text, first_titles, row_titles, settled, texts, wait


@pytest.fixture(scope="module")
def tickets_api():
    url = os.environ.get("ROWSERVER_TICKETS_URL")
    if not url:
        pytest.fail("ROWSERVER_TICKETS_URL is not set: run scripts/browser-test.sh")
    api = API(url.rstrip("/"))
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
    browser.get(tickets_api.base_url + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "#list .row, #list tbody tr"))
    yield browser
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], f"console errors: {errors}"


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

"""The explorer in a real headless Chromium against a real rowserver: every screen is compared
with what the API says, and screenshots of the main screens are saved for a person to look at."""

import time
import urllib.error
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from explorer_page import choose, CSP, detail_text, first_titles, row_ids, row_titles, search, settled, texts, wait


# MARK: - Serving


def test_page_and_assets_carry_the_security_headers(base_url):
    for path, media_type in [("/", "text/html"), ("/explorer/app.js", "text/javascript"), ("/explorer/app.css", "text/css")]:
        with urllib.request.urlopen(base_url + path, timeout=10) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == media_type + "; charset=utf-8"
            assert response.headers["Content-Security-Policy"] == CSP
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Cache-Control"] == "no-cache"
            tag = response.headers["ETag"]
        request = urllib.request.Request(base_url + path, headers={"If-None-Match": tag})
        with pytest.raises(urllib.error.HTTPError) as not_modified:
            urllib.request.urlopen(request, timeout=10)
        assert not_modified.value.code == 304


# MARK: - The split view


def test_split_view_lists_the_index_with_no_selection(page, api, screenshots):
    index = api.get("/v1")["collections"]
    sidebar = texts(page, ".collection")
    assert sidebar == [c["title"] for c in index]
    current = page.find_element(By.CSS_SELECTOR, '.collection[aria-current="page"]')
    assert current.text == index[0]["title"]
    assert "No Selection" in detail_text(page)
    first = api.get(index[0]["links"]["list"])
    wait(page, lambda: row_titles(page)[:5] == first_titles(first)[:5])
    # The trailing value and the subtitle are the API's, preformatted.
    row = first["rows"][0]
    element = page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]')
    assert row["subtitle"] in element.text and (row["trailing"] or "") in element.text
    page.save_screenshot(str(screenshots / "split-view-no-selection.png"))


@pytest.mark.parametrize("collection_id", ["products", "departments", "people", "articles", "documents", "tracks"])
def test_each_collection_shows_its_rows(page, api, collection_id):
    body = choose(page, api, collection_id)
    assert page.find_element(By.ID, "list-title").text == api.collection(collection_id)["title"]
    # Image hints become inline SVG drawings, one per row that has a hint.
    hinted = [row for row in body["rows"] if row["image"]]
    if hinted:
        symbol = page.find_element(By.CSS_SELECTOR, f'#list [data-id="{hinted[0]["id"]}"] svg').get_attribute("data-symbol")
        assert symbol == hinted[0]["image"]


def test_scrolling_to_the_end_loads_the_next_page(page, api):
    first = choose(page, api, "products")
    assert first["links"]["next"], "the demo data has more than one page of products"
    assert len(row_titles(page)) == len(first["rows"])
    second = api.get(first["links"]["next"])
    page.execute_script("const s = document.getElementById('list-scroll'); s.scrollTop = s.scrollHeight")
    wait(page, lambda: len(row_ids(page)) >= len(first["rows"]) + len(second["rows"]), message="second page")
    assert row_ids(page)[len(first["rows"]) :][: len(second["rows"])] == [row["id"] for row in second["rows"]]


def test_sections_merge_a_department_continued_on_the_next_page(page, api, screenshots):
    first = choose(page, api, "people", mode="sections")
    headers = texts(page, "#list .section-header")
    assert headers[: len(first["sections"])] == [section["header"] for section in first["sections"]]
    page.save_screenshot(str(screenshots / "people-sections.png"))
    second = api.get(first["links"]["next"])
    page.execute_script("const s = document.getElementById('list-scroll'); s.scrollTop = s.scrollHeight")
    wait(page, lambda: second["sections"][0]["rows"][0]["id"] in row_ids(page), message="second page of sections")
    headers = texts(page, "#list .section-header")
    assert all(a != b for a, b in zip(headers, headers[1:])), f"a continued section must not repeat its header: {headers}"
    if first["sections"][-1]["id"] == second["sections"][0]["id"]:
        assert headers.count(first["sections"][-1]["header"]) == 1


# MARK: - Search


def test_search_folds_accents(page, api):
    choose(page, api, "people")
    search(page, "jose")
    people = api.collection("people")
    expected = api.get(people["links"]["list"] + "?q=jose")
    assert any("José" in row["title"] for row in expected["rows"]), "the demo data has a José"
    wait(page, lambda: settled(page) and row_titles(page) == first_titles(expected), message="search results")
    label = page.find_element(By.CSS_SELECTOR, 'label[for="search"]').get_attribute("textContent")
    assert label == "Search People"


def test_search_without_results_shows_the_api_empty_state(page, api, screenshots):
    choose(page, api, "products")
    search(page, "Zebraphone")
    expected = api.get(api.collection("products")["links"]["list"] + "?q=Zebraphone")["empty"]
    assert expected["title"] == "No Results for “Zebraphone”"
    empty = page.find_element(By.ID, "empty")
    wait(page, lambda: empty.is_displayed() and expected["title"] in empty.text, message="empty state")
    assert expected["description"] in empty.text
    assert page.find_element(By.CSS_SELECTOR, "#empty svg").get_attribute("data-symbol") == expected["image"]
    assert row_titles(page) == []
    page.save_screenshot(str(screenshots / "empty-search.png"))


# MARK: - Detail


@pytest.mark.parametrize("collection_id", ["products", "people", "articles"])
def test_detail_shows_what_the_detail_link_returns(page, api, screenshots, collection_id):
    body = choose(page, api, collection_id)
    row = body["rows"][1]
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]').click()
    detail = api.get(row["detail"])
    heading = detail.get("name") or detail.get("fullName") or detail.get("headline") or detail.get("title")
    wait(page, lambda: page.find_elements(By.ID, "detail-heading") and page.find_element(By.ID, "detail-heading").text == heading)
    shown = detail_text(page)
    assert detail["id"] in shown
    for key in ("shortDescription", "emailAddress", "phoneNumber"):
        if key in detail:
            assert detail[key] in shown
    if "price" in detail:
        assert detail["price"]["formatted"] in shown
    if "department" in detail:
        assert detail["department"]["name"] in shown
    selected = page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]')
    assert selected.get_attribute("aria-selected") == "true"
    if collection_id == "products":
        page.save_screenshot(str(screenshots / "split-view-detail.png"))


def test_a_track_leads_to_its_samples(page, api, screenshots):
    body = choose(page, api, "tracks")
    row = body["rows"][0]
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]').click()
    track = api.get(row["detail"])
    wait(page, lambda: page.find_elements(By.CSS_SELECTOR, '[data-link="samples"]'))
    assert all(channel["name"] in detail_text(page) for channel in track["channels"])
    page.find_element(By.CSS_SELECTOR, '[data-link="samples"]').click()
    samples = api.get(track["links"]["samples"])
    wait(page, lambda: settled(page) and row_titles(page)[:5] == first_titles(samples)[:5], message="samples")
    if "columns" in samples:
        # One column per channel of the track, after the timestamp.
        assert texts(page, "#list th.full-col") == [column["title"] for column in samples["columns"]]
    else:
        assert samples["rows"][0]["subtitle"] in page.find_element(By.ID, "list").text
    assert track["title"] in page.find_element(By.ID, "list-title").text
    page.save_screenshot(str(screenshots / "track-samples.png"))
    page.find_element(By.ID, "back").click()
    wait(page, lambda: settled(page) and row_titles(page)[:3] == first_titles(body)[:3], message="back to tracks")


# MARK: - Tables


def test_table_sorts_by_following_the_column_links(page, api, screenshots):
    table = choose(page, api, "products", mode="table")
    assert texts(page, "#list th.full-col") == [column["title"] for column in table["columns"]]
    price = next(column for column in table["columns"] if column["id"] == "price")
    header = page.find_element(By.CSS_SELECTOR, 'th.full-col[data-column="price"] button')
    header.click()
    ascending = api.get(price["links"]["ascending"])
    wait(page, lambda: settled(page) and row_titles(page)[:10] == first_titles(ascending)[:10], message="ascending")
    th = page.find_element(By.CSS_SELECTOR, 'th.full-col[data-column="price"]')
    assert th.get_attribute("aria-sort") == "ascending"
    first_cells = texts(page, "#list tbody tr:first-child td.full-col")
    assert first_cells == [ascending["rows"][0]["cells"][c["id"]] or "—" for c in table["columns"]]
    page.find_element(By.CSS_SELECTOR, 'th.full-col[data-column="price"] button').click()
    descending = api.get(price["links"]["descending"])
    wait(page, lambda: settled(page) and row_titles(page)[:10] == first_titles(descending)[:10], message="descending")
    assert page.find_element(By.CSS_SELECTOR, 'th.full-col[data-column="price"]').get_attribute("aria-sort") == "descending"
    page.save_screenshot(str(screenshots / "products-table.png"))


def test_narrow_window_shows_only_the_compact_column(page, api, screenshots):
    table = choose(page, api, "people", mode="table")
    page.set_window_size(480, 860)
    wait(page, lambda: not page.find_element(By.CSS_SELECTOR, "#list tbody tr td.full-col").is_displayed())
    first = page.find_element(By.CSS_SELECTOR, "#list tbody tr:first-child td.compact-col")
    assert first.is_displayed()
    compact = table["rows"][0]["compact"]
    assert compact["title"] in first.text and (compact["subtitle"] or "") in first.text
    assert [th.is_displayed() for th in page.find_elements(By.CSS_SELECTOR, "#list th")].count(True) == 1
    page.save_screenshot(str(screenshots / "narrow-table-compact.png"))
    # Opening a row replaces the list with the detail; Back returns to the list.
    first.click()
    wait(page, lambda: page.find_element(By.ID, "detail-heading").is_displayed())
    assert not page.find_element(By.ID, "list-scroll").is_displayed()
    page.save_screenshot(str(screenshots / "narrow-detail.png"))
    page.find_element(By.ID, "detail-back").click()
    wait(page, lambda: page.find_element(By.ID, "list-scroll").is_displayed())


# MARK: - Refresh and the change feed


def test_created_product_arrives_through_the_change_feed_without_a_reload(page, api):
    body = choose(page, api, "products")
    kept = body["rows"][3]["id"]
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{kept}"]').click()
    page.execute_script("window.explorerTestMarker = 'same page'")
    # First in the list's order: the stream places it where the server has it, on the page shown.
    name = f"0 Explorer Lamp {uuid.uuid4().hex[:8]}"
    status, _, created = api.request(
        "POST",
        "/v1/products",
        {"name": name, "shortDescription": "Made in a browser test", "longDescription": "It glows.", "price": {"minorUnits": 4200, "currency": "USD"}},
    )
    assert status == 201, created
    # The list's stream brings it (the poll, every 5 s, where there is none; the refresh button too).
    wait(page, lambda: name in row_titles(page), timeout=20, message="the new product appears")
    assert page.execute_script("return window.explorerTestMarker") == "same page", "the page must not reload"
    assert page.find_element(By.CSS_SELECTOR, f'#list [data-id="{kept}"]').get_attribute("aria-selected") == "true"
    status, _, _ = api.request("DELETE", created["links"]["self"])
    if status in (200, 204):
        page.find_element(By.ID, "refresh").click()
        wait(page, lambda: name not in row_titles(page), timeout=20, message="the deleted product goes")


def test_edits_and_deletes_apply_in_place_keeping_selection_and_scroll(page, api):
    body = choose(page, api, "products")
    rows = body["rows"]
    selected = rows[20]["id"]
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{selected}"]').click()
    page.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'start'})", f"row-{selected}")

    def top_of(row_id):
        return page.execute_script(
            "return document.getElementById(arguments[0]).getBoundingClientRect().top", f"row-{row_id}"
        )

    before = top_of(selected)
    edited, deleted = rows[25], rows[2]
    status, _, _ = api.request("PATCH", edited["detail"], {"shortDescription": "Edited by the browser test"})
    assert status == 200
    status, _, _ = api.request("DELETE", deleted["detail"])
    assert status in (200, 204)
    page.find_element(By.ID, "refresh").click()
    wait(page, lambda: deleted["id"] not in row_ids(page), timeout=15, message="deleted row goes")
    wait(page, lambda: "Edited by the browser test" in page.find_element(By.ID, f"row-{edited['id']}").text, message="edit shown")
    assert row_ids(page).index(edited["id"]) == 24, "an edited row keeps its place"
    assert page.find_element(By.ID, f"row-{selected}").get_attribute("aria-selected") == "true"
    assert abs(top_of(selected) - before) <= 1, "a row removed above must not move what is in view"


def test_a_new_person_takes_its_place_in_its_section(page, api):
    body = choose(page, api, "people", mode="sections")
    section = body["sections"][0]
    person = {"givenName": "Aada", "familyName": "Aaberg", "emailAddress": f"aada.{uuid.uuid4().hex[:6]}@example.com",
              "phoneNumber": "(555) 555-0100", "departmentID": section["id"]}
    status, _, created = api.request("POST", "/v1/people", person)
    assert status == 201, created
    page.find_element(By.ID, "refresh").click()
    wait(page, lambda: created["id"] in row_ids(page), timeout=15, message="the new person appears")
    header = page.execute_script(
        "return document.getElementById(arguments[0]).closest('.section').querySelector('.section-header').textContent",
        f"row-{created['id']}",
    )
    assert header == section["header"]
    api.request("DELETE", created["links"]["self"])


def test_an_edited_table_row_shows_its_new_cells(page, api):
    table = choose(page, api, "products", mode="table")
    row = table["rows"][1]
    status, _, _ = api.request("PATCH", row["detail"], {"price": {"minorUnits": 12345, "currency": "USD"}})
    assert status == 200
    page.find_element(By.ID, "refresh").click()
    cells = f"return document.getElementById('row-{row['id']}').textContent"
    wait(page, lambda: "$123.45" in page.execute_script(cells), timeout=15, message="new price shown")
    assert row_ids(page).index(row["id"]) == 1


def test_refresh_keeps_the_list_when_nothing_changed(page, api):
    choose(page, api, "departments")
    before = row_ids(page)
    page.find_element(By.ID, "refresh").click()
    time.sleep(1)
    assert row_ids(page) == before


# MARK: - Keyboard and accessibility


def test_keyboard_moves_the_selection_and_enter_opens_it(page, api, screenshots):
    body = choose(page, api, "products")
    search_field = page.find_element(By.ID, "search")
    search_field.click()
    search_field.send_keys(Keys.ARROW_DOWN)  # from the search field into the list
    listbox = page.switch_to.active_element
    assert listbox.get_attribute("role") == "listbox"
    ids = [row["id"] for row in body["rows"]]

    def selected():
        return page.execute_script("return document.querySelector('#list [aria-selected=true]')?.dataset.id")

    listbox.send_keys(Keys.ARROW_DOWN)
    assert selected() == ids[0]
    listbox.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    assert selected() == ids[2]
    assert listbox.get_attribute("aria-activedescendant") == f"row-{ids[2]}"
    listbox.send_keys(Keys.ARROW_UP)
    assert selected() == ids[1]
    listbox.send_keys(Keys.END)
    assert selected() == ids[-1]
    listbox.send_keys(Keys.HOME)
    assert selected() == ids[0]
    listbox.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait(page, lambda: page.find_elements(By.ID, "detail-heading") and page.find_element(By.ID, "detail-heading").text == body["rows"][1]["title"])
    # The selected row shows a visible focus ring while the list has keyboard focus.
    outline = page.execute_script("return getComputedStyle(document.querySelector('#list [aria-selected=true]')).outlineStyle")
    assert outline != "none"
    assert page.switch_to.active_element == listbox
    page.save_screenshot(str(screenshots / "keyboard-selection.png"))


def test_landmarks_and_labels(page):
    assert page.find_elements(By.CSS_SELECTOR, "nav[aria-labelledby]")
    assert page.find_elements(By.CSS_SELECTOR, "main")
    assert page.find_elements(By.CSS_SELECTOR, "aside[aria-label=Detail]")
    assert page.find_elements(By.CSS_SELECTOR, "[role=search] label[for=search]")


def test_dark_scheme(page, api, screenshots):
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    choose(page, api, "people", mode="sections")
    background = page.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(28, 28, 30)"
    page.save_screenshot(str(screenshots / "dark-sections.png"))


# MARK: - Problems


def test_a_problem_is_shown_inline_and_the_page_keeps_working(page, api):
    choose(page, api, "products")
    search(page, "x" * 201)  # longer than the API's 200: a 400 problem+json
    problem = api.request("GET", api.collection("products")["links"]["list"] + "?q=" + "x" * 201)[2]
    alert = page.find_element(By.CSS_SELECTOR, "#list-problem")
    wait(page, lambda: alert.is_displayed() and problem["title"] in alert.text, message="problem shown")
    assert problem["detail"] in alert.text
    search(page, "")
    choose(page, api, "departments")
    assert not alert.is_displayed()
    # The browser logs the refused request itself; nothing else may be in the log.
    errors = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert all("status of 400" in e["message"] for e in errors), errors


def test_network_failures_leave_the_page_working(page, api):
    choose(page, api, "products")
    shown = row_ids(page)
    page.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    page.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        page.find_element(By.ID, "refresh").click()
        connection = page.find_element(By.ID, "connection")
        wait(page, lambda: "Network Error" in connection.text, message="refresh failure shown")
        assert row_ids(page) == shown, "a failed refresh keeps the list"
        page.find_element(By.CSS_SELECTOR, '.collection[data-collection="people"]').click()
        alert = page.find_element(By.ID, "list-problem")
        wait(page, lambda: alert.is_displayed() and "Network Error" in alert.text, message="load failure shown")
    finally:
        online = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        page.execute_cdp_cmd("Network.emulateNetworkConditions", online)
        page.execute_cdp_cmd("Network.disable", {})
    page.find_element(By.CSS_SELECTOR, "#list-problem .retry").click()
    people = api.get(api.collection("people")["links"]["list"])
    wait(page, lambda: settled(page) and row_titles(page)[:5] == first_titles(people)[:5], message="loads after Try Again")
    assert not page.find_element(By.ID, "list-problem").is_displayed()
    page.find_element(By.ID, "refresh").click()
    wait(page, lambda: page.find_element(By.ID, "connection").text == "", message="connection status clears")
    # The browser logs the refused requests itself; the page adds nothing.
    errors = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert all("net::ERR_INTERNET_DISCONNECTED" in e["message"] for e in errors), errors

"""The explorer in a real headless Chromium against a real rowserver: every screen is compared
with what the API says, and screenshots of the main screens are saved for a person to look at."""

import json
import time
import urllib.error
import urllib.request
import uuid

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)


def wait(driver, condition, timeout=10, message=""):
    # A refresh may redraw a row between finding it and reading it: look again.
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition(), message)


def texts(driver, selector):
    """textContent of every match: hidden cells too (Selenium's .text is empty for those).
    Sort indicators (▲▼) are left out: they are the page's, not the API's."""
    script = "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent.replace(/[▲▼]/g, ''))"
    return driver.execute_script(script, selector)


def row_titles(driver):
    return texts(driver, "#list .row .row-title, #list td.compact-col .row-title")


def row_ids(driver):
    return driver.execute_script("return [...document.querySelectorAll('#list [data-id]')].map(e => e.dataset.id)")


def settled(driver):
    return driver.execute_script("return !document.getElementById('list-scroll').hasAttribute('aria-busy')")


def choose(driver, api, collection_id, mode="list"):
    """Picks a collection in the sidebar (and a mode) and waits for the API's first page."""
    collection = api.collection(collection_id)
    driver.find_element(By.CSS_SELECTOR, f'.collection[data-collection="{collection_id}"]').click()
    if mode != "list":
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'.mode[data-mode="{mode}"]'))
        driver.find_element(By.CSS_SELECTOR, f'.mode[data-mode="{mode}"]').click()
    first = api.get(collection["links"][mode])
    expected = first_titles(first)
    wait(driver, lambda: settled(driver) and row_titles(driver)[: len(expected)] == expected, message=f"{collection_id} {mode}")
    return first


def first_titles(body):
    if "columns" in body:
        return [row["compact"]["title"] for row in body["rows"]]
    if "sections" in body:
        return [row["title"] for section in body["sections"] for row in section["rows"]]
    return [row["title"] for row in body["rows"]]


def search(driver, text):
    field = driver.find_element(By.ID, "search")
    field.clear()
    field.send_keys(text)


def detail_text(driver):
    return driver.find_element(By.ID, "detail").text


def key_label(driver):
    return driver.find_element(By.ID, "key-label").text


def enter_key(driver, secret):
    """Enters an API key the way a person does: the key button, the field, Use Key."""
    driver.find_element(By.ID, "key-button").click()
    dialog = driver.find_element(By.ID, "key-dialog")
    wait(driver, lambda: dialog.is_displayed(), message="key dialog opens")
    field = driver.find_element(By.ID, "key-input")
    assert driver.switch_to.active_element == field
    field.send_keys(secret)
    driver.find_element(By.ID, "key-save").click()
    wait(driver, lambda: not dialog.is_displayed(), message="key dialog closes")


def open_by_search(driver, name):
    """Finds one row by its unique title with the search field, and opens its detail."""
    search(driver, name)
    wait(driver, lambda: settled(driver) and row_titles(driver) == [name], message=f"search finds {name}")
    driver.find_element(By.CSS_SELECTOR, "#list [data-id]").click()
    wait(driver, lambda: driver.find_elements(By.ID, "detail-heading") and driver.find_element(By.ID, "detail-heading").text == name)
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#detail [data-action="delete"]'), message="Delete is offered")
    assert driver.find_element(By.CSS_SELECTOR, "#detail .detail-actions").text == "Delete…"


def delete_shown_item(driver):
    """Delete…, then Delete in the confirmation."""
    heading = driver.find_element(By.ID, "detail-heading").text
    driver.find_element(By.CSS_SELECTOR, '#detail [data-action="delete"]').click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '#detail [data-action="confirm-delete"]'), message="confirmation")
    assert f"Delete “{heading}”?" in driver.find_element(By.CSS_SELECTOR, "#detail .confirm").text
    driver.find_element(By.CSS_SELECTOR, '#detail [data-action="confirm-delete"]').click()


def delete_problem(driver):
    """The problem the Delete got, once it is shown under the fields."""
    selector = "#detail .detail-actions .problem"
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, selector), message="the delete's problem is shown")
    return driver.find_element(By.CSS_SELECTOR, selector)


def drain_console(driver, allowed):
    """The browser logs each refused request itself (a 401, a 403); nothing else may be there."""
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert all(any(text in e["message"] for text in allowed) for e in errors), errors


def new_product(api, label):
    name = f"{label} {uuid.uuid4().hex[:8]}"
    status, _, created = api.request(
        "POST", "/v1/products",
        {"name": name, "shortDescription": "Made for a key test", "longDescription": "", "price": {"minorUnits": 1500, "currency": "USD"}},
    )
    assert status == 201, created
    return name, created


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
    name = f"Explorer Lamp {uuid.uuid4().hex[:8]}"
    status, _, created = api.request(
        "POST",
        "/v1/products",
        {"name": name, "shortDescription": "Made in a browser test", "longDescription": "It glows.", "price": {"minorUnits": 4200, "currency": "USD"}},
    )
    assert status == 201, created
    # The poll (every 5 s) brings it; the refresh button would too.
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


# MARK: - API keys


def test_without_a_key_reads_work_and_a_delete_says_a_key_is_needed(page, api, screenshots):
    assert key_label(page) == "No API key"
    name, product = new_product(api, "Keyless Lamp")
    choose(page, api, "products")
    open_by_search(page, name)
    assert product["shortDescription"] in detail_text(page)
    # What the server says to a write without a key: 401, KEY_REQUIRED, and how to send one.
    status, headers, problem = api.request("DELETE", product["links"]["self"], anonymous=True)
    assert status == 401 and problem["code"] == "KEY_REQUIRED", problem
    assert headers["WWW-Authenticate"] == 'Bearer realm="rowserver"'
    delete_shown_item(page)
    alert = delete_problem(page)
    wait(page, lambda: alert.is_displayed() and problem["detail"] in alert.text, message="the 401 is shown")
    assert problem["title"] in alert.text
    assert "needs an API key" in alert.text and "API key button" in alert.text, alert.text
    page.save_screenshot(str(screenshots / "delete-without-key.png"))
    # Nothing changed: the item is there, in the API and in the list.
    assert api.get(product["links"]["self"])["name"] == name
    page.find_element(By.ID, "refresh").click()
    time.sleep(1)
    assert row_titles(page) == [name]
    assert page.find_element(By.ID, "detail-heading").text == name
    # The problem points to where a key goes.
    alert.find_element(By.CSS_SELECTOR, ".key-fix").click()
    dialog = page.find_element(By.ID, "key-dialog")
    wait(page, lambda: dialog.is_displayed(), message="the key dialog opens")
    assert page.switch_to.active_element == page.find_element(By.ID, "key-input")
    assert "No key is set" in page.find_element(By.ID, "key-status").text
    assert not page.find_element(By.ID, "key-clear").is_displayed()
    page.save_screenshot(str(screenshots / "key-dialog.png"))
    page.find_element(By.ID, "key-cancel").click()
    wait(page, lambda: not dialog.is_displayed())
    assert key_label(page) == "No API key"
    drain_console(page, ["status of 401"])


def test_with_a_key_entered_the_delete_works(page, api, keys, screenshots):
    secret = keys.create("explorer user", "write")
    name, product = new_product(api, "Keyed Lamp")
    choose(page, api, "products")
    enter_key(page, secret)
    wait(page, lambda: key_label(page) == "API key set", message="the button says a key is set")
    assert "set" in page.find_element(By.ID, "key-button").get_attribute("class").split()
    # Kept for this tab only, never in the URL; a reload keeps it.
    assert page.execute_script("return sessionStorage.getItem('rowserver.apiKey')") == secret
    assert page.execute_script("return localStorage.length") == 0
    assert secret not in page.current_url
    page.refresh()
    wait(page, lambda: settled(page) and row_titles(page), message="reloaded")
    assert key_label(page) == "API key set"
    choose(page, api, "products")
    open_by_search(page, name)
    delete_shown_item(page)
    wait(page, lambda: "Deleted" in detail_text(page), message="the detail says it was deleted")
    assert name in detail_text(page)
    status, _, _ = api.request("GET", product["links"]["self"])
    assert status == 404
    wait(page, lambda: name not in row_titles(page), timeout=15, message="the row goes")
    page.save_screenshot(str(screenshots / "delete-with-key.png"))
    # The dialog names the key by its id only and can clear it.
    page.find_element(By.ID, "key-button").click()
    status_line = page.find_element(By.ID, "key-status").text
    assert secret.split("_")[1] in status_line and secret not in status_line
    assert page.find_element(By.ID, "key-input").get_attribute("value") == ""
    page.find_element(By.ID, "key-clear").click()
    wait(page, lambda: key_label(page) == "No API key")
    assert page.execute_script("return sessionStorage.getItem('rowserver.apiKey')") is None


def test_a_wrong_key_is_not_accepted_and_can_be_cleared(page, api, screenshots):
    choose(page, api, "products")
    enter_key(page, "rsk_notakey")
    alert = page.find_element(By.ID, "list-problem")
    wait(page, lambda: alert.is_displayed() and "not accepted" in alert.text, message="the list says the key is refused")
    status, _, problem = api.request("GET", "/v1/products", key="rsk_notakey")
    assert status == 401 and problem["code"] == "INVALID_KEY", problem
    assert problem["detail"] in alert.text
    assert key_label(page) == "Key not accepted"
    assert "refused" in page.find_element(By.ID, "key-button").get_attribute("class").split()
    assert "not accepted" in page.find_element(By.ID, "connection").text
    page.save_screenshot(str(screenshots / "wrong-key.png"))
    alert.find_element(By.CSS_SELECTOR, ".key-fix").click()  # Clear Key
    wait(page, lambda: key_label(page) == "No API key")
    products = api.get(api.collection("products")["links"]["list"])
    wait(page, lambda: settled(page) and row_titles(page)[:5] == first_titles(products)[:5], message="reads again without a key")
    assert not alert.is_displayed()
    assert page.find_element(By.ID, "connection").text == ""
    drain_console(page, ["status of 401"])


def test_a_key_revoked_while_in_use_is_not_accepted_anywhere(page, api, keys):
    secret = keys.create("revoked soon", "read")
    enter_key(page, secret)
    body = choose(page, api, "departments")
    row = body["rows"][0]
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{row["id"]}"]').click()
    wait(page, lambda: page.find_elements(By.ID, "detail-heading"))
    keys.revoke(secret)
    page.find_element(By.ID, "refresh").click()
    connection = page.find_element(By.ID, "connection")
    wait(page, lambda: "not accepted" in connection.text, message="the refresh says the key is refused")
    assert key_label(page) == "Key not accepted"
    assert row_titles(page)[: len(body["rows"])] == first_titles(body), "the list stays"
    page.find_element(By.ID, "key-button").click()
    assert "not accepted" in page.find_element(By.ID, "key-status").text
    page.find_element(By.ID, "key-clear").click()
    wait(page, lambda: key_label(page) == "No API key" and connection.text == "")
    drain_console(page, ["status of 401"])


def test_the_key_goes_in_the_authorization_header_of_every_request_and_only_there(page, api, keys, base_url):
    def requests():
        """The page's own requests since the last call: URL and headers, from DevTools."""
        sent = []
        for entry in page.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                request = message["params"]["request"]
                if request["url"].startswith(base_url + "/v1"):
                    sent.append((request["method"], request["url"], {k.lower(): v for k, v in request["headers"].items()}))
        return sent

    # DevTools reports requests while its Network domain is on (another test turns it off).
    page.execute_cdp_cmd("Network.enable", {})
    secret = keys.create("header check", "read")
    enter_key(page, secret)
    body = choose(page, api, "people", mode="sections")
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{body["sections"][0]["rows"][0]["id"]}"]').click()
    wait(page, lambda: page.find_elements(By.CSS_SELECTOR, '#detail [data-action="delete"]'), message="detail and its OPTIONS")
    page.find_element(By.ID, "refresh").click()
    time.sleep(1)
    with_key = requests()
    methods = {method for method, _, _ in with_key}
    assert {"GET", "OPTIONS"} <= methods, with_key
    assert any("/changes" in url for _, url, _ in with_key), "the change feed was read"
    for method, url, headers in with_key:
        assert headers.get("authorization") == f"Bearer {secret}", (method, url)
        assert secret not in url
    page.find_element(By.ID, "key-button").click()
    page.find_element(By.ID, "key-clear").click()
    wait(page, lambda: key_label(page) == "No API key")
    choose(page, api, "departments")
    without_key = requests()
    assert without_key
    assert all("authorization" not in headers for _, _, headers in without_key), without_key

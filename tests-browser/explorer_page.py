"""What the explorer's browser tests do with a page: waiting, reading rows and details, searching,
entering a key, deleting, creating products through the API."""

import uuid

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
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

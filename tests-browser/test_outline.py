"""An outline in the explorer (examples/outline.yaml): the folders' list starts at the roots, and
each row with children opens onto them below it, one level in, by its disclosure or the keyboard."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import API, APIKeys, close_explorer, environment, open_explorer
from explorer_page import row_ids, row_titles, settled, wait


@pytest.fixture(scope="module")
def outline_api():
    keys = APIKeys(environment("ROWSERVER_BIN"), environment("ROWSERVER_OUTLINE_DB"), environment("ROWSERVER_OUTLINE_COLLECTIONS"))
    url = os.environ.get("ROWSERVER_OUTLINE_URL")
    if not url:
        pytest.fail("ROWSERVER_OUTLINE_URL is not set: run scripts/browser-test.sh")
    api = API(url.rstrip("/"), key=keys.create("outline fixtures", "write"))

    def folder(name, parent=None):
        body = {"name": name, **({"parentID": parent} if parent else {})}
        status, _, created = api.request("POST", "/v1/folders", body)
        assert status == 201, created
        return created["id"]

    api.tree = {"Archive": folder("Archive"), "Projects": folder("Projects")}
    api.tree["Apollo"] = folder("Apollo", api.tree["Projects"])
    api.tree["Zeus"] = folder("Zeus", api.tree["Projects"])
    api.tree["Designs"] = folder("Designs", api.tree["Apollo"])
    return api


@pytest.fixture
def outline_page(browser, outline_api):
    browser.set_window_size(1400, 900)
    open_explorer(browser, outline_api.base_url)
    yield browser
    close_explorer(browser)


def disclosure(driver, node_id):
    return driver.find_element(By.CSS_SELECTOR, f'#list [data-id="{node_id}"] button.disclosure')


def test_an_outline_opens_level_by_level(outline_page, outline_api, screenshots):
    tree = outline_api.tree
    outline_page.find_element(By.CSS_SELECTOR, '.collection[data-collection="folders"]').click()
    wait(outline_page, lambda: settled(outline_page) and row_titles(outline_page) == ["Archive", "Projects"], message="the roots")
    # A row without children has no button, only the place of one.
    assert not outline_page.find_elements(By.CSS_SELECTOR, f'#list [data-id="{tree["Archive"]}"] button.disclosure')
    assert disclosure(outline_page, tree["Projects"]).get_attribute("aria-expanded") == "false"

    disclosure(outline_page, tree["Projects"]).click()
    wait(outline_page, lambda: row_titles(outline_page) == ["Archive", "Projects", "Apollo", "Zeus"], message="Projects opened")
    assert disclosure(outline_page, tree["Projects"]).get_attribute("aria-expanded") == "true"
    apollo = outline_page.find_element(By.CSS_SELECTOR, f'#list [data-id="{tree["Apollo"]}"]')
    assert apollo.get_attribute("aria-level") == "2"
    projects = outline_page.find_element(By.CSS_SELECTOR, f'#list [data-id="{tree["Projects"]}"]')
    assert apollo.location["x"] == projects.location["x"] and apollo.size["width"] == projects.size["width"]
    indent = outline_page.execute_script("return parseFloat(getComputedStyle(arguments[0]).paddingLeft)", apollo)
    assert indent > outline_page.execute_script("return parseFloat(getComputedStyle(arguments[0]).paddingLeft)", projects)

    # The keyboard: right opens the selected row's children, left closes them.
    apollo.click()
    wait(outline_page, lambda: outline_page.find_elements(By.ID, "detail-heading"))
    listbox = outline_page.find_element(By.CSS_SELECTOR, "#list .listbox")
    listbox.send_keys(Keys.ARROW_RIGHT)
    wait(outline_page, lambda: row_titles(outline_page) == ["Archive", "Projects", "Apollo", "Designs", "Zeus"], message="Apollo opened")
    outline_page.save_screenshot(str(screenshots / "outline-open.png"))

    # Closing a row takes its open descendants with it.
    disclosure(outline_page, tree["Projects"]).click()
    wait(outline_page, lambda: row_titles(outline_page) == ["Archive", "Projects"], message="Projects closed")
    assert tree["Designs"] not in row_ids(outline_page)

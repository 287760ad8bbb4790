"""Two windows on the explorer: a write made in one shows in the other within a second, from the
list's stream (server-sent events), with no page request (the window's resource timings)."""

import time
import uuid

from selenium.webdriver.common.by import By

from conftest import close_explorer, open_explorer
from explorer_page import choose, enter_key, key_label, new_product, row_ids, row_titles, search, settled, wait


def is_live(driver):
    return driver.execute_script("return document.body.dataset.live") == "true"


def list_requests(driver):
    """The URLs of the /v1 reads the window made, the stream's own aside."""
    script = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/v1/'))"
    return [url for url in driver.execute_script(script) if "/changes" not in url]


def test_a_write_in_one_window_shows_in_the_other_within_a_second_without_a_page_request(page, api, keys, base_url, screenshots):
    label = f"Live {uuid.uuid4().hex[:6]}"
    products = [new_product(api, label)[1] for _ in range(2)]
    watcher = page.current_window_handle
    choose(page, api, "products")
    search(page, label)
    wait(page, lambda: settled(page) and len(row_titles(page)) == 2, message="the two products")
    wait(page, lambda: is_live(page), message="the list is live")

    # The writer: a second window with a write key deletes one product by ticking it.
    page.switch_to.new_window("window")
    open_explorer(page, base_url)
    choose(page, api, "products")
    enter_key(page, keys.create("live writer", "write"))
    wait(page, lambda: key_label(page) == "API key set")
    search(page, label)
    wait(page, lambda: settled(page) and len(row_ids(page)) == 2, message="the writer's list")
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{products[0]["id"]}"] .row-check').click()
    page.find_element(By.CSS_SELECTOR, '#selection-bar [data-action="delete-selected"]').click()
    wait(page, lambda: page.find_elements(By.CSS_SELECTOR, '#selection-bar [data-action="confirm-delete-selected"]'))
    page.switch_to.window(watcher)
    before = list_requests(page)
    page.switch_to.window(page.window_handles[-1])
    page.find_element(By.CSS_SELECTOR, '#selection-bar [data-action="confirm-delete-selected"]').click()
    wait(page, lambda: products[0]["id"] not in row_ids(page), message="the writer's row goes")
    written = time.monotonic()
    close_explorer(page)
    page.close()

    # The watcher: the row goes within a second, and the list read nothing to know it.
    page.switch_to.window(watcher)
    wait(page, lambda: row_ids(page) == [products[1]["id"]], timeout=5, message="the deleted row leaves the other window")
    assert time.monotonic() - written < 1.0
    # A new product with the label comes in the same way, in its place.
    created = new_product(api, label)[1]
    wait(page, lambda: created["id"] in row_ids(page), timeout=2, message="the new row arrives")
    page.save_screenshot(str(screenshots / "live-other-window.png"))
    assert list_requests(page) == before, "a page was read"
    assert is_live(page)


def test_the_client_module_keeps_a_list_from_its_stream(page, api):
    """/client/rowserver.js as another page would use it: a LiveList of a search, and a product
    created through the API arriving in its rows, in the server's order."""
    label = f"Module {uuid.uuid4().hex[:6]}"
    first = new_product(api, label)[1]
    page.execute_async_script(
        """
        const [label, done] = arguments;
        import("/client/rowserver.js").then(async ({ LiveList }) => {
          const list = new LiveList("/v1/products?q=" + encodeURIComponent(label));
          window.liveList = list;
          await list.open();
          done();
        }).catch((error) => done(String(error)));
        """,
        label,
    )
    wait(page, lambda: page.execute_script("return window.liveList.state") == "live", message="the module's list is live")
    assert page.execute_script("return window.liveList.rows.map(r => r.id)") == [first["id"]]
    second = new_product(api, "0 " + label)[1]
    expected = [row["id"] for row in api.get(f"/v1/products?q={label.replace(' ', '%20')}")["rows"]]
    assert set(expected) == {first["id"], second["id"]}
    wait(page, lambda: page.execute_script("return window.liveList.rows.map(r => r.id)") == expected, timeout=3, message="the new row in its place")
    page.execute_script("window.liveList.close()")

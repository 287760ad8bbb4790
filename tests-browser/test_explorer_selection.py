"""Rows ticked in a list and deleted together: one atomic batch to the collection's
`links.batch`, so either every ticked row goes or none does."""

import uuid

from selenium.webdriver.common.by import By

from explorer_page import choose, drain_console, enter_key, key_label, new_product, row_ids, row_titles, search, settled, wait


def tick(page, item_id):
    page.find_element(By.CSS_SELECTOR, f'#list [data-id="{item_id}"] .row-check').click()


def selection_text(page):
    return page.find_element(By.ID, "selection-bar").text


def delete_ticked(page, count):
    page.find_element(By.CSS_SELECTOR, '#selection-bar [data-action="delete-selected"]').click()
    wait(page, lambda: page.find_elements(By.CSS_SELECTOR, '#selection-bar [data-action="confirm-delete-selected"]'), message="confirmation")
    assert f"Delete {count} items?" in page.find_element(By.CSS_SELECTOR, "#selection-bar .confirm").text
    page.find_element(By.CSS_SELECTOR, '#selection-bar [data-action="confirm-delete-selected"]').click()


def test_ticked_rows_are_deleted_together(page, api, keys, screenshots):
    label = f"Ticked {uuid.uuid4().hex[:6]}"
    products = [new_product(api, label)[1] for _ in range(3)]
    assert api.collection("products")["links"]["batch"] == "/v1/products/batch"
    choose(page, api, "products")
    enter_key(page, keys.create("selection", "write"))
    wait(page, lambda: key_label(page) == "API key set")
    search(page, label)
    wait(page, lambda: settled(page) and len(row_titles(page)) == 3, message="the three products")
    bar = page.find_element(By.ID, "selection-bar")
    assert not bar.is_displayed()
    # A tick does not open the row; the bar says how many are ticked.
    tick(page, products[0]["id"])
    tick(page, products[2]["id"])
    wait(page, lambda: bar.is_displayed() and "2 selected" in selection_text(page), message="the bar shows two")
    assert page.find_elements(By.ID, "detail-heading") == []
    page.save_screenshot(str(screenshots / "rows-ticked.png"))
    delete_ticked(page, 2)
    wait(page, lambda: row_ids(page) == [products[1]["id"]], timeout=15, message="the two rows go")
    wait(page, lambda: not bar.is_displayed(), message="nothing is ticked any more")
    for product, status in zip(products, [404, 200, 404]):
        assert api.request("GET", product["links"]["self"])[0] == status


def test_when_one_ticked_row_cannot_go_none_does(page, api, keys):
    status, _, empty = api.request("POST", "/v1/departments", {"name": f"AAA Empty {uuid.uuid4().hex[:6]}"})
    assert status == 201, empty
    departments = choose(page, api, "departments")
    used = next(row for row in departments["rows"] if row["id"] != empty["id"])
    enter_key(page, keys.create("selection refused", "write"))
    wait(page, lambda: key_label(page) == "API key set")
    wait(page, lambda: settled(page) and empty["id"] in row_ids(page), message="the new department is listed")
    tick(page, empty["id"])
    tick(page, used["id"])
    delete_ticked(page, 2)
    # The department that still has people refuses; the batch is atomic, so the empty one stays.
    selector = "#selection-bar .problem"
    wait(page, lambda: page.find_elements(By.CSS_SELECTOR, selector), message="the refusal is shown")
    problem = page.find_element(By.CSS_SELECTOR, selector)
    assert problem.get_attribute("data-code") == "CONFLICT"
    assert "Operation 1 (delete)" in problem.text, problem.text
    assert "2 selected" in selection_text(page)
    assert api.request("GET", empty["links"]["self"])[0] == 200
    assert {empty["id"], used["id"]} <= set(row_ids(page))
    page.find_element(By.CSS_SELECTOR, '#selection-bar [data-action="clear-selection"]').click()
    wait(page, lambda: not page.find_element(By.ID, "selection-bar").is_displayed())
    assert api.request("DELETE", empty["links"]["self"])[0] == 204
    drain_console(page, ["status of 409"])

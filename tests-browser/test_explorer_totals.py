"""The explorer shows what a counted list says: the whole list's total above it, each section's
count in its header, and the letter strip of a list in text order, whose letters open the list
at their first row."""

from selenium.webdriver.common.by import By

from explorer_page import choose, first_titles, row_titles, settled, wait


def with_count(link):
    return link + ("&" if "?" in link else "?") + "count=estimated"


def test_the_total_stands_above_the_list(page, api):
    choose(page, api, "people")
    body = api.get(with_count(api.collection("people")["links"]["list"]))
    total = body["total"]
    expected = f"{total['value']:,} items" if total["exact"] else f"About {total['value']:,} items"
    wait(page, lambda: page.find_element(By.ID, "list-total").text == expected, message=f"total {expected}")


def test_each_section_shows_its_count(page, api):
    choose(page, api, "people", mode="sections")
    body = api.get(with_count(api.collection("people")["links"]["sections"]))
    expected = [f"{section['count']['value']:,}" for section in body["sections"]]
    script = "return [...document.querySelectorAll('#list .section-header')].map(e => e.dataset.count)"
    wait(page, lambda: page.execute_script(script)[: len(expected)] == expected, message=f"section counts {expected}")


def test_a_letter_opens_the_list_at_its_first_row(page, api, screenshots):
    choose(page, api, "people")
    first = api.get(with_count(api.collection("people")["links"]["list"]))
    index = api.get(first["links"]["index"])
    wait(page, lambda: [e.text for e in page.find_elements(By.CSS_SELECTOR, "#letters .letter")] == [l["letter"] for l in index["letters"]])
    page.save_screenshot(str(screenshots / "people-letters.png"))
    letter = index["letters"][len(index["letters"]) // 2]
    page.find_element(By.CSS_SELECTOR, f'#letters .letter[data-letter="{letter["letter"]}"]').click()
    opened = api.get(letter["link"])
    expected = first_titles(opened)
    wait(page, lambda: settled(page) and row_titles(page)[: len(expected)] == expected, message=f"the list at {letter['letter']}")
    assert row_titles(page)[0].split(" ")[-1].upper().startswith(letter["letter"])

"""Fixtures for the explorer's browser tests: the server under test, a headless Chromium
driven by Selenium, and a small JSON client to compare the page with the API.

scripts/browser-test.sh starts `rowserver serve` on a fresh database and passes its address
in ROWSERVER_URL; screenshots go to ROWSERVER_SCREENSHOTS (git-ignored by default)."""

import json
import os
import pathlib
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

# The browser asks in en-US; the API client asks the same, so formatted values compare equal.
LANGUAGE = "en-US"


@pytest.fixture(scope="session")
def base_url():
    url = os.environ.get("ROWSERVER_URL")
    if not url:
        pytest.fail("ROWSERVER_URL is not set: run scripts/browser-test.sh")
    return url.rstrip("/")


class API:
    """The API as the tests see it: GET and POST JSON, with the browser's language."""

    def __init__(self, base_url):
        self.base_url = base_url

    def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Accept-Language", LANGUAGE)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read().decode()
                return response.status, dict(response.headers), json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read().decode() or "null")

    def get(self, path):
        status, _, body = self.request("GET", path)
        assert status == 200, f"GET {path}: {status} {body}"
        return body

    def collection(self, collection_id):
        return next(c for c in self.get("/v1")["collections"] if c["id"] == collection_id)


@pytest.fixture(scope="session")
def api(base_url):
    return API(base_url)


@pytest.fixture(scope="session")
def screenshots():
    folder = pathlib.Path(os.environ.get("ROWSERVER_SCREENSHOTS", ".build-explorer/screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", f"--lang={LANGUAGE}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": LANGUAGE})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def page(browser, base_url):
    """The explorer freshly loaded in a wide window, light scheme. After the test, the browser
    log must hold no error (a test that expects some drains them itself)."""
    browser.set_window_size(1400, 900)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    browser.get(base_url + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "#list .row, #list tbody tr"))
    yield browser
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], f"console errors: {errors}"

"""Fixtures for the explorer's browser tests: the server under test, a headless Chromium
driven by Selenium, a small JSON client to compare the page with the API, and API keys made
the way a user makes them, with `rowserver keys create` against the server's database file.

scripts/browser-test.sh starts `rowserver serve` on a fresh database and passes its address
in ROWSERVER_URL, the binary in ROWSERVER_BIN and the database file in ROWSERVER_DB;
screenshots go to ROWSERVER_SCREENSHOTS (git-ignored by default)."""

import json
import os
import pathlib
import subprocess
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


def environment(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run scripts/browser-test.sh")
    return value


class APIKeys:
    """`rowserver keys` on one server's database file (the server reads keys from it per
    request, so a key made or revoked here counts at once)."""

    def __init__(self, binary, database, collections=None):
        self.command = [binary, "keys"]
        self.database = database
        self.definition = ["--collections", collections] if collections else []

    def create(self, name, *scopes):
        """A new key's secret, as `keys create` prints it (alone on standard output)."""
        arguments = [*self.command, "create", "--db", self.database, "--name", name, *self.definition]
        for scope in scopes:
            arguments += ["--scope", scope]
        result = subprocess.run(arguments, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"keys create: {result.stderr}"
        secret = result.stdout.strip()
        assert secret.startswith("rsk_") and "\n" not in secret, result.stdout
        return secret

    def revoke(self, secret):
        key_id = secret.split("_")[1]  # rsk_<id>_<secret>
        result = subprocess.run([*self.command, "revoke", "--db", self.database, key_id], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"keys revoke: {result.stderr}"


@pytest.fixture(scope="session")
def keys():
    return APIKeys(environment("ROWSERVER_BIN"), environment("ROWSERVER_DB"))


class API:
    """The API as the tests see it: JSON with the browser's language. Reads go without a key,
    as the explorer's do by default; writes carry `key` (one with a write scope), as any
    client's must."""

    def __init__(self, base_url, key=None):
        self.base_url = base_url
        self.key = key

    def request(self, method, path, body=None, anonymous=False, key=None):
        """`anonymous`: a write without the key. `key`: this key instead, on any method."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Accept-Language", LANGUAGE)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if key is None and method not in ("GET", "HEAD") and not anonymous:
            key = self.key
        if key:
            request.add_header("Authorization", f"Bearer {key}")
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
def api(base_url, keys):
    return API(base_url, key=keys.create("browser tests", "write"))


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
    # The performance log holds the DevTools network events: the headers each request carried.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    yield driver
    driver.quit()


def open_explorer(browser, url):
    """Loads the explorer with no API key: the tab keeps sessionStorage across loads, so a key
    an earlier test entered is removed first."""
    browser.get(url + "/")
    if browser.execute_script("const n = sessionStorage.length; sessionStorage.clear(); return n"):
        browser.get(url + "/")
    WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "#list .row, #list tbody tr"))
    browser.get_log("performance")  # only what the test itself makes


def close_explorer(browser):
    """After a test: the browser log must hold no error (a test that expects some drains them
    itself), and the key the test entered goes."""
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    browser.execute_script("sessionStorage.clear()")
    assert errors == [], f"console errors: {errors}"


@pytest.fixture
def page(browser, base_url):
    """The explorer freshly loaded in a wide window, light scheme, without an API key."""
    browser.set_window_size(1400, 900)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    open_explorer(browser, base_url)
    yield browser
    close_explorer(browser)

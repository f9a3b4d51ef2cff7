"""The demo app in strada-host, driven as a Rails system test would drive it: Selenium for the page (through
WebKitWebDriver), strada_testing.Native for the native controls, in one session."""
import json
import os
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from strada_testing import StradaHost, click, fill


def test_a_form_saved_with_the_native_button_then_a_native_menu_and_alert(demo, plugins):
    with StradaHost(plugins=plugins, allow=[demo.rstrip("/")]) as app:
        page = app.driver
        wait = WebDriverWait(page, 15)

        # The form: filled through WebDriver, saved with the native header-bar button; the next page shows it.
        page.get(demo + "posts/new")
        fill(page.find_element(By.NAME, "title"), "Hello from Selenium")
        app.native.press("Save")
        wait.until(lambda d: d.find_element(By.ID, "post-title").text == "Hello from Selenium")
        assert "/posts/" in page.current_url

        # A native menu: the page's button opens it; choosing an item reaches the page.
        page.get(demo + "menu")
        click(page.find_element(By.CSS_SELECTOR, "[data-menu-trigger]"))
        app.native.choose("Size", menu="Sort by")
        wait.until(lambda d: d.find_element(By.ID, "sort-label").text == "size")

        # A native alert: confirmed, the page deletes the draft.
        page.get(demo + "alert")
        click(page.find_element(By.ID, "delete"))
        app.native.confirm("Delete this draft?")
        wait.until(lambda d: d.title == "alert: confirmed, draft deleted")
        assert app.native.wait_for_message("alert", "show")["data"]["title"] == "Delete this draft?"


def test_a_failing_scenario_leaves_the_window_the_traffic_and_the_log(demo, tmp_path):
    artifacts = tmp_path / "artifacts"
    environment = dict(os.environ, STRADA_ALLOW=demo.rstrip("/"), STRADA_ARTIFACTS=str(artifacts),
                       STRADA_DEMO=demo)
    scenario = os.path.join(os.path.dirname(__file__), "scenarios", "failing_scenario.py")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", scenario],
                            env=environment, capture_output=True, text=True, timeout=180)
    assert result.returncode == 1, result.stdout + result.stderr
    folder = artifacts / "test_the_saved_post_has_the_wrong_title"
    assert (folder / "screenshot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    traffic = [json.loads(line) for line in (folder / "traffic.jsonl").read_text().splitlines()]
    assert any(event["event"] == "bridge.received" and event["message"]["component"] == "form" for event in traffic)
    assert "loaded 4 plugin(s)" in (folder / "host.log").read_text()


def _png_size(data):
    """A PNG's width and height (its IHDR chunk); fails when `data` is not a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:16]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_page_and_element_screenshots_answer_with_the_hosts_defaults(demo, plugins):
    # Hardware acceleration off (the host's default): WebKit answers a screenshot only after a new frame.
    assert os.environ.get("STRADA_WEBKIT_HW_ACCEL") != "1"
    with StradaHost(plugins=plugins, allow=[demo.rstrip("/")]) as app:
        page = app.driver
        page.command_executor._client_config.timeout = 30  # a hang fails the test instead of waiting forever
        page.get(demo + "posts/new")
        for _ in range(2):  # an idle page, twice: nothing else makes a frame
            width, height = _png_size(page.get_screenshot_as_png())
            assert 300 <= width <= 4000 and 200 <= height <= 4000
        title = page.find_element(By.NAME, "title")
        width, height = _png_size(title.screenshot_as_png)
        assert 0 < width <= title.size["width"] + 2 and 0 < height <= title.size["height"] + 2
        # The page is left as it was: the repaint helper is gone.
        assert page.execute_script("return document.querySelector('strada-repaint') === null")

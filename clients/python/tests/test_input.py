"""Clicks, typing, hovering, double clicks and drags through plain Selenium reach the page as a person's input:
strada-webdriver performs them as real X input into the host's window, so every event is trusted."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from strada_testing import StradaHost


def events(page, *types):
    return [event for event in page.execute_script("return inputEvents") if not types or event["type"] in types]


def test_a_click_a_double_click_hovering_and_a_drag_are_trusted(demo, plugins):
    with StradaHost(plugins=plugins, allow=[demo.rstrip("/")]) as app:
        page = app.driver
        wait = WebDriverWait(page, 15)
        page.get(demo + "input")
        target = page.find_element(By.ID, "target")

        # A double click, then a click: one click, not the third of a triple click (GTK counts presses close
        # in time and place as one multiple click; an element click is one click).
        ActionChains(page).double_click(target).perform()
        wait.until(lambda _: events(page, "dblclick"))
        target.click()
        wait.until(lambda _: len(events(page, "click")) == 3)
        assert [event["type"] for event in events(page, "click", "dblclick")] == ["click", "click", "dblclick", "click"]

        ActionChains(page).move_to_element(page.find_element(By.ID, "hover")).perform()
        wait.until(lambda d: d.find_element(By.ID, "hover").text == "Hovered")

        ActionChains(page).drag_and_drop(page.find_element(By.ID, "handle"), page.find_element(By.ID, "drop")).perform()
        wait.until(lambda d: d.find_element(By.ID, "dropped").text == "Dropped (trusted)")
        up = events(page, "mouseup")[-1]
        assert up["over"] and up["moves"] > 0

        ActionChains(page).context_click(target).perform()
        wait.until(lambda _: events(page, "contextmenu"))
        ActionChains(page).scroll_by_amount(0, 200).perform()
        wait.until(lambda d: d.execute_script("return scrollY") > 0)
        assert events(page, "wheel")[0]["deltaY"] > 0

        recorded = events(page)
        assert {event["type"] for event in recorded} >= {"click", "dblclick", "mouseenter", "mousedown", "mouseup"}
        assert all(event["trusted"] for event in recorded), recorded


def test_an_option_is_selected_and_a_file_input_gets_files_as_the_spec_says(demo, plugins, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("twelve bytes")
    with StradaHost(plugins=plugins, allow=[demo.rstrip("/")]) as app:
        page = app.driver
        page.get(demo + "input")
        Select(page.find_element(By.ID, "choice")).select_by_visible_text("Third")
        page.find_element(By.ID, "file").send_keys(str(notes))
        changes = events(page, "change")
        assert [(event["target"], event["value"]) for event in changes] == [("choice", "Third"),
                                                                           ("file", ["notes.txt 12"])]
        # Neither is input a person could give here (the select's popup menu, the file chooser): scripted.
        assert not any(event["trusted"] for event in changes)


def test_typing_special_keys_and_modifiers_are_trusted_and_enter_submits_the_form(demo, plugins):
    with StradaHost(plugins=plugins, allow=[demo.rstrip("/")]) as app:
        page = app.driver
        wait = WebDriverWait(page, 15)
        page.get(demo + "input")
        field = page.find_element(By.ID, "text")

        field.send_keys("Héllo wörld" + Keys.ENTER)
        wait.until(lambda d: d.find_element(By.ID, "submitted").text == "Submitted: Héllo wörld")

        # Selects all with Ctrl+A, types over it, Shift gives capitals, Backspace deletes; "\n" is Enter.
        field.send_keys(Keys.CONTROL, "a", Keys.NULL, "x", Keys.SHIFT, "yz", Keys.NULL, Keys.BACKSPACE, "\n")
        wait.until(lambda d: d.find_element(By.ID, "submitted").text == "Submitted: xY")
        assert field.get_attribute("value") == "xY"

        # The actions API: key down and up with a modifier held.
        ActionChains(page).key_down(Keys.SHIFT).send_keys("q").key_up(Keys.SHIFT).perform()
        wait.until(lambda _: any(event.get("key") == "Q" for event in events(page, "keydown")))

        keys = events(page, "keydown")
        assert [event["key"] for event in keys if event["key"] in ("Enter", "Backspace")] == ["Enter", "Backspace",
                                                                                             "Enter"]
        assert any(event["key"] == "a" and event["ctrl"] for event in keys)
        assert any(event["key"] == "Y" and event["shift"] for event in keys)
        assert [event["value"] for event in events(page, "submit")] == ["Héllo wörld", "xY"]
        recorded = events(page)
        assert all(event["trusted"] for event in recorded), recorded

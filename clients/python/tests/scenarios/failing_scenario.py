"""Fails on purpose (run by test_demo.py): the `strada` fixture must leave its artefacts."""
import os

from selenium.webdriver.common.by import By


def test_the_saved_post_has_the_wrong_title(strada):
    strada.driver.get(os.environ["STRADA_DEMO"] + "posts/new")
    strada.native.press("Save")
    assert strada.driver.find_element(By.TAG_NAME, "h1").text == "A title this post does not have"

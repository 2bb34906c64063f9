"""Screens stay on: the Wake Lock API where the page is secure (localhost, https), else
(plain http on the party's Wi-Fi) a silent, invisible video; the host page says which."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server

pytestmark = pytest.mark.browser
PLAIN_HTTP = "Object.defineProperty(window, 'isSecureContext', { value: false });"


def test_the_host_page_says_how_screens_stay_on(pages: Pages, server: Server) -> None:
    created = server.api("POST", "/api/nights", json={"players": ["Ann", "Bea", "Cat", "Dee"]})
    link = f"/night/{created['night']}?token={created['host_token']}"
    secure = pages.open(link, name="host on localhost")
    secure.wait_for_url(re.compile(r"/host$"))
    expect(secure.locator("body")).to_have_attribute("data-awake-mode", "wake-lock")
    expect(secure.locator("#awake-note")).to_have_text(
        "The phones' screens stay on while the night runs."
    )

    pages.contexts[-1].close()
    pages.contexts.pop()
    plain = pages.open("/", name="host over plain http")
    plain.context.add_init_script(PLAIN_HTTP)  # as at http://192.168.1.20:8000
    plain.goto(link)
    plain.wait_for_url(re.compile(r"/host$"))
    expect(plain.locator("body")).to_have_attribute("data-awake-mode", "video")
    expect(plain.locator("#awake-note")).to_contain_text("each page keeps its phone awake")
    assert plain.evaluate("!document.querySelector('video.keep-awake').paused")
    assert pages.errors == []

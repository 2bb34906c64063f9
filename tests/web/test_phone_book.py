"""What the server knows of the tables' phones (:mod:`bunco.web.night.phone_book`): the
module's examples, and the latest word on what a phone holds when its report and its
entries cross on the way."""

from __future__ import annotations

import doctest

from bunco.web.night import phone_book
from bunco.web.night.phone_book import PhoneBook


def test_the_modules_examples_hold() -> None:
    result = doctest.testmod(phone_book)
    assert result.attempted == 15 and result.failed == 0


def test_a_report_newer_than_the_last_entry_is_the_latest_word() -> None:
    book = PhoneBook()
    book.note_entry(4, 200.0, more=0, command_id="c-1")
    assert book.waiting(4, 0) == 0
    book.note_report(4, 201.0, {"waiting": 2, "rounds": [{"set": 1, "round": 2, "waiting": 2}]})
    assert (book.waiting(4, 2), book.holds(4, 1, 2)) == (2, 2)
    book.note_entry(4, 202.0, more=1, command_id="c-2")
    assert (book.waiting(4, 2), book.holds(4, 1, 2)) == (1, 1)


def test_an_entry_that_did_not_say_leaves_the_report_standing() -> None:
    book = PhoneBook()
    book.note_report(5, 300.0, {"waiting": 3, "rounds": [{"set": 1, "round": 1, "waiting": 3}]})
    book.note_entry(5, 301.0, command_id="c-3")  # an older page: no ``more``
    assert (book.waiting(5, 3), book.holds(5, 1, 1)) == (3, 3)
    assert book.waiting(6, 2) == 2  # a table never heard: the report alone

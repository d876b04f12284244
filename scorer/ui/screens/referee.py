"""The referee screen (``/referee``): every question the rules referee answers, and its verdict.

A meld, a layoff, the best arrangement, a gin knock, a Kalooki opening (or could a hand open),
a Carousel table change: the player picks the question and the ruleset, types the cards, and
the engine's verdict shows large, legal or not in words and in colour, with the reason.
The state and its wording live in :mod:`scorer.ui.screens.referee_model`.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorer.ui.components.layout import headline, screen
from scorer.ui.components.referee_inputs import RefereeInputs
from scorer.ui.components.referee_pickers import RefereeQuestionPicker, RefereeRulesetPicker
from scorer.ui.components.referee_verdict import RefereeVerdict
from scorer.ui.context import use_settings
from scorer.ui.i18n import tr
from scorer.ui.screens.referee_model import RefereeModel


@ft.component
def RefereeScreen() -> ft.Control:
    # One model per session: use_state keeps it across renders and re-renders on its changes.
    # (The annotation pins use_state's type variable; mypy cannot infer it from a class.)
    state: tuple[RefereeModel, Callable[[RefereeModel], None]] = ft.use_state(RefereeModel)
    model = state[0]
    language = use_settings().language
    return screen(
        headline(tr("screen_title", language)),
        RefereeQuestionPicker(model, language),
        RefereeRulesetPicker(model, language),
        RefereeInputs(model, language),
        RefereeVerdict(model, language),
    )

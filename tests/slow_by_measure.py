"""The default suite's longest tests, run with the slow suite (``-m slow``, in CI too).

The default suite is kept under about four minutes on two cores. Measured on 2026-11-29 with
nothing else running (``pytest --durations``), it took 367 s. The tests below each took 4.5 s or
more (setup and teardown included): whole games through the emulator, deployed bot processes, and
browser-free page and port checks. Together they add up to about 390 s of the workers' time. They
are marked ``slow`` at collection rather than one by one, so this one list says which they are and
why. A parametrized test is listed by its id with the parameter when only that case is long.
"""

from __future__ import annotations

SLOW_BY_MEASURE = frozenset({
    "tests/bot/e2e/deployed/test_backup_restore.py::test_back_up_damage_restore_and_play_on",
    "tests/bot/e2e/deployed/test_metrics.py::test_a_taken_port_is_a_sentence_and_its_own_exit_code",
    "tests/bot/e2e/deployed/test_metrics.py::test_health_and_metrics_of_the_running_bot",
    "tests/bot/e2e/deployed/test_process.py::test_an_unreachable_discord_is_a_sentence_not_a_traceback",
    "tests/bot/e2e/deployed/test_process.py::test_the_deployed_bot_plays_and_stops_cleanly_on_sigterm",
    "tests/bot/e2e/deployed/test_single_process.py::test_a_second_bot_on_the_same_database_refuses_and_a_killed_one_leaves_no_lock",
    "tests/bot/e2e/test_alt_text.py::test_pyramido_and_continuous_pyramid_pictures_are_described",
    "tests/bot/e2e/test_alt_text.py::test_pyrinoes_pictures_name_no_hidden_domino",
    "tests/bot/e2e/test_anywhere_property.py::test_any_clicks_in_a_group_dm_keep_one_true_card_and_no_channel_route",
    "tests/bot/e2e/test_cards.py::test_continuous_pyramid_is_cards_throughout",
    "tests/bot/e2e/test_cards.py::test_pyramido_is_cards_throughout",
    "tests/bot/e2e/test_cards.py::test_pyrinoes_is_cards_throughout",
    "tests/bot/e2e/test_clock_authority_property.py::test_no_move_is_accepted_once_the_bank_is_empty_whatever_the_sweep_did",
    "tests/bot/e2e/test_daily.py::test_closed_dms_a_dm_and_a_timed_out_daily",
    "tests/bot/e2e/test_endings.py::test_a_stuck_solitaire_has_a_give_up_button",
    "tests/bot/e2e/test_full_disk.py::test_a_start_whose_board_could_not_be_queued_is_announced_once_storage_answers",
    "tests/bot/e2e/test_games.py::test_pyramido_competitive_against_an_ai",
    "tests/bot/e2e/test_games.py::test_pyramido_coop_two_people_share_one_pyramid",
    "tests/bot/e2e/test_games.py::test_pyrinoes_against_an_ai_to_the_target",
    "tests/bot/e2e/test_german_pyramido.py::test_a_whole_pyramido_coop_game_in_german",
    "tests/bot/e2e/test_hardening_forged.py::test_a_held_write_lock_is_told_as_such",
    "tests/bot/e2e/test_logins.py::test_a_process_restarting_in_a_loop_waits_longer_each_time",
    "tests/bot/e2e/test_logins_postgresql.py::test_two_processes_starting_together_take_turns",
    "tests/bot/e2e/test_notifications.py::test_twenty_turns_in_one_minute_buzz_once_then_one_message",
    "tests/bot/e2e/test_only_move.py::test_pyramido_competitive_only_pass_is_a_button",
    "tests/bot/e2e/test_postgresql.py::test_pyrinoes_against_an_ai_to_the_target",
    "tests/bot/e2e/test_rate_limits.py::test_no_move_lost_and_no_board_twice_at_the_limit",
    "tests/bot/e2e/test_ratings.py::test_ratings_change_show_and_are_rebuilt_identically",
    "tests/bot/e2e/test_replays.py::test_a_finished_game_gets_its_replay_in_its_thread_once[pyramido]",
    "tests/bot/e2e/test_visibility_handlers.py::test_forged_clicks_never_show_a_game_the_rule_refuses",
    "tests/bot/posting/test_global_limit_at_send.py::test_posts_held_by_a_channels_bucket_still_keep_the_global_limit",
    "tests/bot/ratings/test_idle_seats.py::test_every_way_a_game_is_counted_asks_the_minimum_of_play",
    "tests/bot/terminal/test_terminal_session.py::test_ctrl_c_and_ctrl_d_at_a_terminal_quit_cleanly",
    "tests/render/test_replay.py::test_a_long_game_lasts_at_most_a_minute_with_first_and_last_held",
    "tests/render/test_words_fit.py::test_words_fit_in_any_reachable_position[continuous-pyramid]",
    "tests/tools/test_demo_ports.py::test_every_port_of_the_playground_is_loopback_whatever_the_environment_says",
    "tests/tools/test_load_bench.py::test_a_short_run_plays_and_prints_its_figures",
    "tests/tools/test_load_bench.py::test_moves_from_hand_dms_reach_shard_zero",
})

-- arena 0006: the bot's judgement of each model move (issue 25): arena-bot's EvaluateMove on the
-- position before the move, written by arena's move judge after the move was applied
-- (services/arena/move_judge.h). NULL until judged; a turn that was not a board move, or whose
-- judgement failed or was dropped under load, stays NULL.
ALTER TABLE ai_turns ADD COLUMN evaluation_json text;

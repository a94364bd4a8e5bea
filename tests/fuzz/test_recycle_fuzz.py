"""Differential fuzzing of RECYCLE: generated programs (recycle_programs.py)
played by the VM, on the program the RECYCLE checker lowers (on the
compiled tier, the default, and on the loop), and by the reference
interpreter on RECYCLE's own syntax tree, with random seats: the transcripts
(errors included) are the same."""
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.fuzz.recycle_programs import recycle_programs
from tests.util import run_cli

# Found by CI: a card of the hand played to the next player's area is a play
# on both sides (the destination is the play's, not the rule's to read).
TO_NEXT = ";; Fuzzed\n(game\n (setup\n  (create players 2)\n  (create deck (game iloc STOCK) (deck (RANK (ACE, TWO, THREE)) (SUIT (CLUBS, HEARTS)))))\n (do ((shuffle (game iloc STOCK)) (put points 'VALUE (((RANK (ACE)) 11)))\n      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))\n (stage player (end (>= (game sto TURNS) 1))\n  (do ((inc (game sto TURNS) 1)\n       (inc ((current player) sto SCORE) (* (game sto TURNS) (size ((current player) iloc HAND))))\n       (set ((current player) sto SCORE) 0) (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((next player) vloc SHOWN)))))))))\n (scoring max ((current player) sto SCORE)))\n"

# Found by the fuzz (PIPVM_FUZZ_SEED=5): a play whose option reads a points map
# of constant entries inside its `any` is a play on both sides (the reference
# refused every points map in a rule; the checker writes constant ones in).
POINTS_IN_A_PLAY = ";; Fuzzed\n(game\n (setup\n  (create players 2)\n  (create deck (game iloc STOCK) (deck (RANK (ACE, TWO, THREE)) (SUIT (CLUBS, HEARTS)))))\n (do ((shuffle (game iloc STOCK)) (put points 'VALUE (((RANK (ACE)) 11)))\n      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))\n (stage player (end (>= (game sto TURNS) 1))\n  (do ((inc (game sto TURNS) 1)\n       (inc ((current player) sto SCORE) (* (game sto TURNS) (size ((current player) iloc HAND))))\n       (set ((current player) sto SCORE) 0) (choice ((any (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) CLUBS)) 'C ((== (sum (game vloc PILE) using 'VALUE) 0) (do ((move 'C (top (game vloc PILE))) (move (top (game vloc PILE)) (top (game vloc PILE))))))))))))\n (scoring max ((current player) sto SCORE)))\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=recycle_programs(), seed=st.integers(1, 1000))
@example(source=TO_NEXT, seed=925)
@example(source=POINTS_IN_A_PLAY, seed=1)
def test_reference_matches_vm_on_generated_recycle(tmp_path, source, seed):
    path = tmp_path / 'fuzzed.recycle'
    path.write_text(source)
    argv = ['run', '--bots', 'random', '--seed', str(seed), str(path)]
    vm = run_cli(argv)
    if vm[1].startswith(b'Error: Line') and b'Welcome' not in vm[1]:
        return                  # the checker refused it: nothing to play
    for engine in ('loop', 'reference'):      # (vm: the default engine's)
        assert run_cli(argv[:-1] + ['--engine', engine, str(path)]) == vm, (engine, source)

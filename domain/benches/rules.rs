#![expect(clippy::expect_used, reason = "benchmarks set up fixed inputs that are known to be valid")]

//! Domain benchmarks. Each group has a baseline measured in the same run, so figures can be
//! reported as ratios: `cargo bench -p skirmish-domain --bench rules`.

use criterion::{Criterion, criterion_group, criterion_main};
use skirmish_domain::dice::{Dice, DiceExpr};
use skirmish_domain::encounter::{
    Advance, CombatantId, Encounter, EncounterId, Flags, InitiativeRequest, NewCombatant, add_combatant,
    advance, roll_initiative,
};
use skirmish_domain::rulesets::{RulesetId, StatBlock, spycraft2};
use skirmish_domain::score::Score;
use std::hint::black_box;

fn dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    group.bench_function("baseline: four seeded d6 draws", |b| {
        let mut dice = Dice::seeded(1);
        b.iter(|| (0..4).map(|_| dice.roll(6, "d").unwrap_or(0)).sum::<u32>());
    });
    group.bench_function("parse 4d6kh3+2", |b| b.iter(|| black_box("4d6kh3+2").parse::<DiceExpr>()));
    let expression: DiceExpr = "4d6kh3+2".parse().expect("valid");
    group.bench_function("roll 4d6kh3+2 (parsed)", |b| {
        b.iter(|| expression.roll(&mut Dice::seeded(1), "bench").map(|o| o.total))
    });
    group.bench_function("parse and roll 4d6kh3+2", |b| {
        b.iter(|| black_box("4d6kh3+2").parse::<DiceExpr>().and_then(|e| e.roll(&mut Dice::seeded(1), "b")))
    });
    group.finish();
}

/// One expression per family of the d20 grammar, for `dice_families` and for
/// `scripts/dice-vs-d20.sh`, which reads this table (keep one `("name", "expression"),` a line).
const FAMILIES: [(&str, &str); 10] = [
    ("arithmetic", "1 + 3 * 6 - 15 // 2 + 13 % 2"),
    ("decimals and comparison", "1.5 * 2d6 >= 7"),
    ("keep/drop", "4d6kh3 + 10d6k1k2p3"),
    ("sets", "(1d4, 2+2, 3d6kl1)kh1"),
    ("nested sets", "((10d6kh5)kl2)kh1"),
    ("reroll", "4d6rr1ro<3"),
    ("explode", "8d6e6 + 4d6ra6"),
    ("min/max", "10d6mi2ma5"),
    ("annotations", "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)"),
    ("comments", "1d20+5 I search the room"),
];

/// Each iteration does the work of one roll request: parse the expression (comments allowed),
/// make a seeded dice source, roll, and build the outcome (total, rendered breakdown such as
/// `4d6kh3 (6, 5, 3, ~~1~~) + 2 = 16`, the dice record and the annotated terms), dropped inside
/// the timing.
///
/// The d20 side (`scripts/dice-vs-d20.sh`) times, with Python's timeit in process,
/// `str(d20.roll(expr, allow_comments=True))`: parse (d20 caches no parse that allows comments),
/// roll, total and render (`str()`), the same work, except that d20 draws from Python's
/// module-level RNG where Skirmish seeds a new one each iteration. Plain `d20.roll(expr)` is not
/// the same work: after its first call d20 answers the parse from its LFU cache, and it renders
/// nothing until `str()`; the script shows `str(d20.roll(expr))` too ("d20 cached"), ungated.
fn dice_families(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice families");
    for (family, text) in FAMILIES {
        group.bench_function(format!("parse and roll: {family} ({text})"), |b| {
            b.iter(|| DiceExpr::parse(black_box(text), true).and_then(|e| e.roll(&mut Dice::seeded(1), "b")))
        });
    }
    group.finish();
}

/// A spycraft2 encounter of `size` combatants with initiative rolled.
fn encounter(size: usize) -> Encounter {
    let mut encounter = Encounter::new(EncounterId("bench".into()), RulesetId::Spycraft2, "Bench".into());
    for index in 0..size {
        let stats = StatBlock::Spycraft2(spycraft2::Stats::with_initiative_bonus(
            Score::new((index % 5) as i64).expect("in range"),
        ));
        let new = NewCombatant {
            id: CombatantId(format!("c{index}")),
            name: format!("Combatant {index}"),
            side: "a".into(),
            stats,
            flags: Flags::default(),
        };
        add_combatant(&mut encounter, new).expect("room");
    }
    roll_initiative(&mut encounter, &InitiativeRequest::default(), &mut Dice::seeded(3)).expect("rolls");
    encounter
}

/// Advance and initiative at 10, 50 and 200 combatants (200 is an encounter's most), each size
/// beside the cost of cloning an encounter of that size (the baseline, which the iterations
/// also pay to start from the same state).
fn turns(c: &mut Criterion) {
    let mut group = c.benchmark_group("encounter");
    for size in [10, 50, 200] {
        let base = encounter(size);
        group.bench_function(format!("baseline: clone a {size}-combatant encounter"), |b| {
            b.iter(|| black_box(&base).clone())
        });
        group.bench_function(format!("advance one turn ({size} combatants)"), |b| {
            b.iter_batched(
                || base.clone(),
                |mut encounter| advance(&mut encounter, Advance::NextTurn).map(|events| events.len()),
                criterion::BatchSize::SmallInput,
            )
        });
        group.bench_function(format!("roll initiative ({size} combatants)"), |b| {
            b.iter_batched(
                || base.clone(),
                |mut encounter| {
                    roll_initiative(&mut encounter, &InitiativeRequest::default(), &mut Dice::seeded(9))
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, dice, dice_families, turns);
criterion_main!(benches);

//! Rule-numbered tests: set-up, sequence of play, movement, ZOC, support fire.
mod common;
use common::*;
use fm_core::*;

#[test]
fn rule_5_4_example_river_village_clear_costs_three() {
    // 5.4 example: clear (1) + village (+1) + river hexside (+1) = 3 MP.
    let sc = Tiny::new(4, 4)
        .terrain("0202", &["clear", "village"])
        .side("0201", "0202", &["river"])
        .leg("a1", Side::A, 1, 1, 3, "0201")
        .build();
    let mut s = start(&sc);
    let ev = play(&sc, &mut s, mv("a1", &["0202"]), &mut Script::new(&[]));
    assert_eq!(
        ev[0],
        Event::UnitMoved {
            unit: u("a1"),
            from: Some(h("0201")),
            path: vec![h("0202")],
            mp: Mp::whole(3)
        }
    );
}

//! A part of a panel drawn from a value it keeps (`Part`): spawned with its panel, drawn again
//! (its own children only) when the value it is shown changes, and left as it is otherwise. A
//! panel made of parts keeps, through the server's news and the player's typing, what a panel
//! spawned again would lose: how far its page is scrolled, the button a finger is on, the
//! pointer's hover.
//!
//! A screen spawns its panel once per face (`spawn_part` for each part, plain widgets for what
//! never changes), then gives each part its value every time its inputs change (`Parts::show`);
//! a value equal to the one shown costs a comparison. Each part's type is shown at most once at a
//! time, since `show` finds the part by its value's type.

use std::any::Any;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::game::board::art::Art;

/// What a part shows, as a value: two equal values draw the same children.
pub trait Part: PartialEq + Send + Sync + 'static {
    /// The part's children, drawn from the value.
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands);

    /// The part shows nothing (it then takes no room, not even the gap between its
    /// neighbours).
    fn is_empty(&self) -> bool {
        false
    }

    /// The words of a part that is one text and nothing else (a count of seconds): shown
    /// again by changing that text in place, where another part is drawn again.
    fn words(&self) -> Option<&str> {
        None
    }
}

/// The value a part shows, on its node.
#[derive(Component)]
pub struct Shows(Box<dyn AnyPart>);

/// A `Part` of any type: `Shows` holds one.
trait AnyPart: Send + Sync + 'static {
    fn as_any(&self) -> &dyn Any;
}

impl<P: Part> AnyPart for P {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Spawns under `p` a part showing `value`, laid out by `node` (a row, a column...).
pub fn spawn_part<P: Part>(p: &mut ChildSpawnerCommands, art: &Art, node: Node, value: P) {
    let node = Node {
        display: display(&value),
        ..node
    };
    p.spawn(node)
        .with_children(|c| value.spawn(art, c))
        .insert(Shows(Box::new(value)));
}

/// A part's node laid out as the panels' and pages' columns are: its lines one under the other,
/// as wide as the column, ten points apart.
pub fn column() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Stretch,
        row_gap: px(10),
        ..default()
    }
}

fn display(value: &impl Part) -> Display {
    if value.is_empty() {
        Display::None
    } else {
        Display::Flex
    }
}

/// The parts on screen, to give them their values.
#[derive(SystemParam)]
pub struct Parts<'w, 's> {
    commands: Commands<'w, 's>,
    art: Res<'w, Art>,
    shown: Query<'w, 's, (Entity, &'static mut Shows, &'static mut Node)>,
    children: Query<'w, 's, &'static Children>,
    texts: Query<'w, 's, &'static mut Text>,
}

impl Parts<'_, '_> {
    /// The part of `value`'s type shows `value`: its children are drawn again if it showed
    /// another. The value is given back when no such part is on screen (its panel is to be
    /// spawned).
    pub fn show<P: Part>(&mut self, value: P) -> Result<(), P> {
        for (entity, mut shows, mut node) in &mut self.shown {
            let Some(old) = shows.0.as_any().downcast_ref::<P>() else {
                continue;
            };
            if *old != value {
                if !retell(&self.children, &mut self.texts, entity, &value) {
                    let mut part = self.commands.entity(entity);
                    part.despawn_children();
                    part.with_children(|c| value.spawn(&self.art, c));
                }
                node.display = display(&value);
                shows.0 = Box::new(value);
            }
            return Ok(());
        }
        Err(value)
    }
}

/// A part of one text given `value`'s words in place: whether it was one.
fn retell<P: Part>(
    children: &Query<&Children>,
    texts: &mut Query<&mut Text>,
    part: Entity,
    value: &P,
) -> bool {
    let Some(words) = value.words() else {
        return false;
    };
    let Some(&line) = children.get(part).ok().and_then(|c| c.first()) else {
        return false;
    };
    let Ok(mut text) = texts.get_mut(line) else {
        return false;
    };
    words.clone_into(&mut text.0);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(PartialEq)]
    struct Count(u32);

    impl Part for Count {
        fn spawn(&self, _art: &Art, p: &mut ChildSpawnerCommands) {
            for _ in 0..self.0 {
                p.spawn(Text::new("line"));
            }
        }
        fn is_empty(&self) -> bool {
            self.0 == 0
        }
    }

    #[derive(Resource)]
    struct Next(u32);

    fn show(next: Res<Next>, mut parts: Parts) {
        assert!(parts.show(Count(next.0)).is_ok(), "the part is on screen");
    }

    fn lines(app: &mut App) -> Vec<Entity> {
        let mut q = app.world_mut().query_filtered::<Entity, With<Text>>();
        let mut lines: Vec<Entity> = q.iter(app.world()).collect();
        lines.sort();
        lines
    }

    #[test]
    fn a_part_is_drawn_again_only_when_its_value_changes() {
        let mut app = App::new();
        app.insert_resource(Art::default());
        app.insert_resource(Next(2));
        app.add_systems(Update, show);
        let part = {
            let mut commands = app.world_mut().commands();
            let art = Art::default();
            let mut root = commands.spawn(Node::default());
            root.with_children(|p| spawn_part(p, &art, Node::default(), Count(2)));
            root.id()
        };
        app.world_mut().flush();
        app.update();
        let first = lines(&mut app);
        assert_eq!(first.len(), 2);
        app.update();
        assert_eq!(lines(&mut app), first, "the same value: the same entities");
        app.world_mut().resource_mut::<Next>().0 = 3;
        app.update();
        let second = lines(&mut app);
        assert_eq!(second.len(), 3, "a new value: drawn again");
        assert!(second.iter().all(|e| !first.contains(e)));
        app.world_mut().resource_mut::<Next>().0 = 0;
        app.update();
        assert!(lines(&mut app).is_empty());
        let mut nodes = app.world_mut().query_filtered::<&Node, With<Shows>>();
        let node = nodes.single(app.world()).unwrap();
        assert_eq!(node.display, Display::None, "an empty part takes no room");
        assert_eq!(
            app.world().entity(part).get::<Children>().map(|c| c.len()),
            Some(1),
            "the part itself stays"
        );
    }

    #[derive(PartialEq)]
    struct Seconds(String);

    impl Part for Seconds {
        fn spawn(&self, _art: &Art, p: &mut ChildSpawnerCommands) {
            p.spawn(Text::new(self.0.clone()));
        }
        fn words(&self) -> Option<&str> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_part_of_one_text_changes_its_words_in_place() {
        let mut app = App::new();
        app.insert_resource(Art::default());
        app.insert_resource(Next(1));
        app.add_systems(Update, |next: Res<Next>, mut parts: Parts| {
            let words = format!("{} s", next.0);
            assert!(parts.show(Seconds(words)).is_ok());
        });
        {
            let mut commands = app.world_mut().commands();
            let art = Art::default();
            let mut root = commands.spawn(Node::default());
            root.with_children(|p| spawn_part(p, &art, Node::default(), Seconds("1 s".into())));
        }
        app.world_mut().flush();
        app.update();
        let first = lines(&mut app);
        app.world_mut().resource_mut::<Next>().0 = 2;
        app.update();
        assert_eq!(lines(&mut app), first, "the same text entity");
        let mut texts = app.world_mut().query::<&Text>();
        let words: Vec<String> = texts.iter(app.world()).map(|t| t.0.clone()).collect();
        assert_eq!(words, ["2 s"]);
    }
}

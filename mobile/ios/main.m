// The app's entry point. The game is the Rust library libo_an_quan.a: main_rs()
// (src/game/start.rs) builds the Bevy app, whose window backend enters UIKit's
// application loop and does not come back.
extern void main_rs(void);

int main(int argc, char *argv[]) {
    (void)argc;
    (void)argv;
    main_rs();
    return 0;
}

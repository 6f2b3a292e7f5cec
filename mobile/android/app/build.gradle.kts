plugins {
    alias(libs.plugins.android.application)
}

android {
    namespace = "org.oanquan.game"
    compileSdk = 35

    // The NDK that built the Rust library; build-debug-apk passes it so that the packaging
    // step strips the library's symbols with the same NDK's tools.
    providers.gradleProperty("oaq.ndkPath").orNull?.let { ndkPath = it }

    defaultConfig {
        applicationId = "org.oanquan.game"
        // 26: the oldest Android with AAudio, which the game's sound output uses.
        minSdk = 26
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
        ndk {
            // Phones, and the emulator on a PC.
            abiFilters += listOf("arm64-v8a", "x86_64")
        }
    }

    buildTypes {
        getByName("release") {
            // No Java or Kotlin code to shrink.
            isMinifyEnabled = false
        }
    }

    sourceSets {
        getByName("main") {
            // The repository's assets folder is the APK's assets root: Bevy's asset server
            // reads fonts/NotoSans-Regular.ttf from assets/fonts/NotoSans-Regular.ttf.
            assets.srcDirs(rootProject.file("../../assets"))
            // libo_an_quan.so per ABI, written there by `cargo ndk -o`.
            jniLibs.srcDirs("src/main/jniLibs")
        }
    }
}

// Gradle run by hand, before the script has built the library or copied the icon: say so
// instead of packaging an APK that cannot start.
val rustLibrary = file("src/main/jniLibs/arm64-v8a/libo_an_quan.so")
val launcherIcon = file("src/main/res/mipmap-xxxhdpi/ic_launcher.png")
tasks.matching { it.name == "preBuild" }.configureEach {
    doFirst {
        val absent = listOf(rustLibrary, launcherIcon).filterNot { it.isFile }
        if (absent.isNotEmpty()) {
            throw GradleException(
                "Missing ${absent.joinToString()}: run mobile/android/build-debug-apk, " +
                    "which builds the Rust library and copies the launcher icon.",
            )
        }
    }
}

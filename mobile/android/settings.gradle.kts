// The Android app around the game's Rust library (libo_an_quan.so, a NativeActivity).
// Build it with ./build-debug-apk, which compiles the library first.

pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "o-an-quan"
include(":app")

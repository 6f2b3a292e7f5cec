// Plugins are declared here once and applied in app/build.gradle.kts.
plugins {
    alias(libs.plugins.android.application) apply false
}

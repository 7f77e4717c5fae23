import type { Findings } from './findings.js';
import type { ProfileFs } from './profile-fs.js';

/**
 * Ecosystems recognised by their manifest alone (Ruby, Maven, Gradle, PHP, Elixir) and a
 * Dockerfile: no file is parsed, the presence of the manifest says enough.
 */
export function detectOtherManifests(fs: ProfileFs, f: Findings): void {
  if (fs.exists('Gemfile')) {
    f.stack.push('Ruby');
    f.managers.push('bundler');
    if (fs.exists('spec')) f.test.push('bundle exec rspec');
  }
  if (fs.exists('pom.xml')) {
    f.stack.push('Java');
    f.managers.push('maven');
    f.build.push('mvn package');
    f.test.push('mvn test');
  }
  if (fs.exists('build.gradle') || fs.exists('build.gradle.kts')) {
    f.stack.push(fs.exists('build.gradle.kts') ? 'Kotlin/JVM' : 'Java');
    f.managers.push('gradle');
    const gw = fs.exists('gradlew') ? './gradlew' : 'gradle';
    f.build.push(`${gw} build`);
    f.test.push(`${gw} test`);
  }
  if (fs.exists('composer.json')) {
    f.stack.push('PHP');
    f.managers.push('composer');
  }
  if (fs.exists('mix.exs')) {
    f.stack.push('Elixir');
    f.managers.push('mix');
    f.test.push('mix test');
  }
  if (fs.exists('Dockerfile')) f.stack.push('Docker');
}

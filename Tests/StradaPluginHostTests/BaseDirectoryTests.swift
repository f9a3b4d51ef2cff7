import Testing

@testable import StradaPluginHost

/// The XDG base directories: a set absolute variable wins; unset, empty or relative ones fall back to the home
/// folder's default, as the specification says.
struct BaseDirectoryTests {
    @Test func anAbsoluteVariableIsUsed() {
        let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": "/srv/data", "XDG_CACHE_HOME": "/srv/cache"]
        #expect(BaseDirectory.data.path(environment: environment) == "/srv/data")
        #expect(BaseDirectory.cache.appending("strada/x", environment: environment) == "/srv/cache/strada/x")
        #expect(BaseDirectory.state.path(environment: environment) == "/home/ada/.local/state")
    }

    @Test(arguments: ["", "relative/data", "~/data"])
    func anEmptyOrRelativeVariableIsIgnored(value: String) {
        let environment = ["HOME": "/home/ada", "XDG_DATA_HOME": value, "XDG_CACHE_HOME": value]
        #expect(BaseDirectory.data.path(environment: environment) == "/home/ada/.local/share")
        #expect(BaseDirectory.cache.path(environment: environment) == "/home/ada/.cache")
    }
}

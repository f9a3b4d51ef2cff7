# frozen_string_literal: true

# The demo app in strada-host as a Rails system test drives an app: Capybara with Selenium through
# WebKitWebDriver for the page, `using_native` for the native controls. Run by scripts/test-clients:
#   STRADA_HOST=… STRADA_PLUGINS=… ruby -Ilib test/demo_test.rb
require "minitest/autorun"
require "open3"
require "capybara/minitest"
require "strada/capybara"

REPOSITORY = File.expand_path("../../..", __dir__)
_input, server_out, server = Open3.popen2("python3", File.join(REPOSITORY, "Examples/demo/server.py"), "--port", "0",
                                        err: File::NULL)
DEMO = server_out.gets.split.last.chomp("/")
# The app server goes with the tests (Rails' own system tests stop theirs the same way).
Minitest.after_run do
  Process.kill("TERM", server.pid)
  server.join
rescue Errno::ESRCH
  nil
end

Capybara.app_host = DEMO
Capybara.run_server = false
Capybara.default_max_wait_time = 10
Strada.register_driver(plugins: ENV.fetch("STRADA_PLUGINS").split(":"), allow: [DEMO])
Capybara.current_driver = :strada

class DemoTest < Minitest::Test
  include Capybara::DSL
  include Capybara::Minitest::Assertions
  include Strada::DSL

  def teardown
    Strada.save_artifacts(File.join(ENV.fetch("STRADA_ARTIFACTS", "strada-artifacts"), name)) unless passed?
  end

  def test_the_form_the_menu_and_the_alert
    visit "/posts/new"
    fill_in "title", with: "Hello from Capybara"
    using_native { click_native_button "Save" }
    assert_selector "#post-title", text: "Hello from Capybara"

    visit "/menu"
    find("[data-menu-trigger]").click
    using_native { choose_native_menu_item "Size", menu: "Sort by" }
    assert_selector "#sort-label", text: "size"

    visit "/alert"
    find("#delete").click
    using_native { accept_native_alert "Delete this draft?" }
    assert_title "alert: confirmed, draft deleted"
  end
end

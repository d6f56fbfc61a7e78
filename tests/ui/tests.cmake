# The GUI's testing hook end to end: open, fuse, simulate, lay out, save a screenshot, exit 0.
if(TARGET fusion-workbench)
  add_test(NAME gui_screenshot_hook
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/gui_test_config
            $<TARGET_FILE:fusion-workbench> --model zoo:resnet50?image=64 --opt-level 2
            --screenshot ${CMAKE_BINARY_DIR}/gui_screenshot_test.png)
  add_test(NAME gui_screenshot_written
    COMMAND ${CMAKE_COMMAND} -E md5sum ${CMAKE_BINARY_DIR}/gui_screenshot_test.png)
  set_tests_properties(gui_screenshot_hook PROPERTIES TIMEOUT 300 FIXTURES_SETUP gui_shot)
  set_tests_properties(gui_screenshot_written PROPERTIES FIXTURES_REQUIRED gui_shot)
  add_test(NAME gui_bad_model_exits_2
    COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model /nonexistent/model.onnx --screenshot '${CMAKE_BINARY_DIR}/gui_never_written.png'; test $? -eq 2"
            $<TARGET_FILE:fusion-workbench>)
  set_tests_properties(gui_bad_model_exits_2 PROPERTIES TIMEOUT 120)
  # What the user sees on real-world models with no flags: the timing table has kernel rows.
  foreach(rw ch_PP-OCRv4_rec_infer silero_vad_v5)
    add_test(NAME gui_timing_csv_${rw}
      COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model '${CMAKE_BINARY_DIR}/realworld/models/${rw}.onnx' --opt-level 2 --screenshot '${CMAKE_BINARY_DIR}/gui_${rw}.png' --timing-csv '${CMAKE_BINARY_DIR}/gui_${rw}.csv' && head -1 '${CMAKE_BINARY_DIR}/gui_${rw}.csv' | grep -q 'Before.*After' && test $(grep -c -v 'not simulated' '${CMAKE_BINARY_DIR}/gui_${rw}.csv') -ge 6"
              $<TARGET_FILE:fusion-workbench>)
    set_tests_properties(gui_timing_csv_${rw} PROPERTIES TIMEOUT 300 FIXTURES_REQUIRED realworld)
  endforeach()
endif()
